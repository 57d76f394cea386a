import { loadFixtureFile } from "./fixture.js";
import { startLocalnet } from "./server.js";
import { LocalnetSettingError, localnetSettings } from "./settings.js";
import { listenFailure } from "../listen-failure.js";

// `npm run localnet [-- fixture.json]`: the embedded ledger alone, a Solana JSON-RPC server over a
// fixture (fixtures/README.md). Its settings: settings.ts and the localnet table of docs/operations.md.

let settings;
try {
  settings = localnetSettings(process.env, process.argv[2], process.cwd());
} catch (error) {
  if (!(error instanceof LocalnetSettingError)) throw error;
  console.error(error.message);
  process.exit(2);
}
const { port, host, latencyMs, fixturePath } = settings;
const ledger = await loadFixtureFile(fixturePath, settings.ledger);
const localnet = await startLocalnet({ ledger, port, host, latencyMs }).catch((error: unknown) => {
  const line = listenFailure(error, { port, host, portSetting: "LOCALNET_PORT", hostSetting: "LOCALNET_HOST" });
  if (line === undefined) throw error;
  console.error(line);
  process.exit(1);
});
console.log(`localnet listening on ${localnet.url} (${ledger.size} accounts from ${fixturePath}, slot ${ledger.slot})`);

const shutdown = () => {
  localnet.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once("SIGINT", shutdown);
process.once("SIGTERM", shutdown);
