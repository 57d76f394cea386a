import { DEMO_FIXTURE_PATH, loadFixtureFile } from "./fixture.js";
import { startLocalnet } from "./server.js";
import { ledgerOptionsFromEnv } from "./settings.js";

// Usage: node dist/localnet/main.js [fixture.json]
// Environment: LOCALNET_PORT (default 8899), LOCALNET_HOST (default 127.0.0.1), LOCALNET_LATENCY_MS,
// and the cluster's parameters LOCALNET_LAMPORTS_PER_BYTE and LOCALNET_SLOT_MS (settings.ts).

function envNumber(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got ${raw}`);
  return value;
}

const fixturePath = process.argv[2] ?? DEMO_FIXTURE_PATH;
const ledger = await loadFixtureFile(fixturePath, ledgerOptionsFromEnv(process.env));
const localnet = await startLocalnet({
  ledger,
  port: envNumber("LOCALNET_PORT", 8899),
  host: process.env.LOCALNET_HOST?.trim() || "127.0.0.1",
  latencyMs: envNumber("LOCALNET_LATENCY_MS", 0),
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
