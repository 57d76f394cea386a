import { pino } from "pino";
import { loadConfig } from "./config.js";
import { type ListenTarget, listenFailure } from "./listen-failure.js";
import { startGateway } from "./platform/node/gateway.js";
import { DEMO_FIXTURE_PATH, identity, loadFixtureFile, startLocalnet } from "./localnet/index.js";
import { deriveDomainKey } from "./sns/derive.js";
import { Record } from "./sns/record-types.js";
import { SRS_DEMO_EXAMPLES } from "./localnet/srs-demo.js";
import { LocalnetSettingError, type LocalnetSettings, localnetSettings } from "./localnet/settings.js";

/**
 * `npm run demo`: the embedded localnet loaded with the demo fixture, and the
 * gateway pointed at it. PORT (default 3000) and HOST apply to the gateway.
 * `npm run demo -- --srs` (or SOL_SRS_RESOLUTION=on) turns SRS-backed `.sol`
 * resolution on and shows the demo ledger's SRS names. LOCALNET_LAMPORTS_PER_BYTE
 * and LOCALNET_SLOT_MS set the localnet's rent rate and slot time (src/localnet/settings.ts).
 */
async function main(): Promise<void> {
  const srs = process.argv.includes("--srs") || process.env.SOL_SRS_RESOLUTION === "on";
  // The localnet's settings as `npm run localnet` reads them, but an ephemeral port unless one is set.
  const settings = settingsOrExit(() =>
    localnetSettings({ LOCALNET_PORT: "0", ...process.env }, DEMO_FIXTURE_PATH, process.cwd()),
  );
  const ledger = await loadFixtureFile(settings.fixturePath, settings.ledger);
  const localnetPort = settings.port;
  const localnet = await startLocalnet({ ledger, port: localnetPort }).catch(
    exitOnListenFailure({
      port: localnetPort,
      host: "127.0.0.1",
      portSetting: "LOCALNET_PORT",
      hostSetting: "LOCALNET_HOST",
    }),
  );
  const config = loadConfig({
    HOST: "127.0.0.1",
    ...process.env,
    RPC_URL: localnet.url,
    ...(srs && { SOL_SRS_RESOLUTION: "on" }),
  });
  const logger = pino({ level: config.logLevel });
  const gateway = await startGateway(config, logger).catch(
    exitOnListenFailure({ port: config.port, host: config.host, portSetting: "PORT", hostSetting: "HOST" }),
  );
  const base = gateway.url;

  const examples: [string, string][] = [
    ["tokenized domain → NFT holder", "/resolve/bonfida.sns"],
    ["valid V2 SOL record", "/resolve/v2-sol.sns"],
    ["stale V2, valid V1 SOL record", "/resolve/stale-v2.sns"],
    ["valid V1 SOL record", "/resolve/v1-sol.sns"],
    ["plain registry owner", "/resolve/plain.sns"],
    ["subdomain", "/resolve/dex.bonfida.sns"],
    ...(srs
      ? SRS_DEMO_EXAMPLES.map(([what, path]): [string, string] => [what, path])
      : [["legacy .sol before the cutoff slot", "/resolve/plain.sol"] as [string, string]]),
    ["not found (404)", "/resolve/nobody.sns"],
    ["malformed record (422)", "/resolve/invalid-roa.sns"],
    ["one record, verified and decoded", "/record-v2/plain/email"],
    ["several records in one call", "/records-v2/profile?records=url,email,SOL,ETH,INJ,A,AAAA,CNAME,TXT,background"],
    ["all 28 record types of one domain", `/records-v2/profile?records=${Object.values(Record).join(",")}`],
    ["record account key", "/record-key-v2/plain/url"],
    ["record types", "/types/record"],
    ["deprecated route (400)", "/record/plain/SOL"],
    ["domain name account key", "/domain-key/dex.bonfida"],
    ["reverse-lookup account key", "/reverse-key/dex.bonfida"],
    ["name of a name account", `/reverse-lookup/${deriveDomainKey("bonfida")}`],
    ["domains of a wallet (registry-owned, then tokenized)", `/domains/${identity("alice").address}`],
    ["tokenized domains held by a wallet", `/domains/${identity("carol").address}`],
    ["primary domain of a wallet", `/primary-domain/${identity("bob").address}`],
    ["stale primary domain (a subdomain the wallet no longer owns)", `/favorite-domain/${identity("erin").address}`],
    [
      "primary domains of several wallets",
      `/multiple-primary-domains/${["alice", "bob", "carol", "dave", "mallory"].map((name) => identity(name).address).join(",")}`,
    ],
    ["subdomains with a reverse record", "/subdomains/bonfida"],
    [
      "instructions registering example.sns, paid in USDC (no RPC read)",
      `/register?buyer=${identity("bob").address}&domain=example&space=1000`,
    ],
    [
      "the same with a referrer, paid in SOL, as an unsigned transaction",
      `/register?buyer=${identity("bob").address}&domain=example&space=1000&referrer=HemvJzwxvVpWBjPETpaseAH395WAxb2G73MeUfjVkK1u&mint=So11111111111111111111111111111111111111112&serialize=true`,
    ],
    [
      "instructions creating team.plain (one RPC round trip)",
      `/create-subdomain?owner=${identity("bob").address}&subdomain=team.plain`,
    ],
    [
      "the same as an unsigned transaction",
      `/create-subdomain?owner=${identity("bob").address}&subdomain=team.plain&serialize=true`,
    ],
  ];
  const lines = examples.map(([what, path]) => `  # ${what}\n  curl -s '${base}${path}'`);
  const bulk = JSON.stringify({ domains: ["bonfida.sns", "v2-sol.sns", "plain.sol", "nobody.sns", "bonfida.com"] });
  lines.push(
    `  # up to 1,000 names in one request, one item per name\n  curl -s -X POST '${base}/resolve' -d '${bulk}'`,
  );
  console.log(
    [
      `localnet (Solana JSON-RPC) ${localnet.url} — ${ledger.size} accounts, slot ${ledger.slot}`,
      `gateway                  ${base}`,
      `API reference            ${base}/docs (OpenAPI 3.1: ${base}/openapi.json)`,
      `SRS-backed .sol          ${srs ? "on (SOL_SRS_RESOLUTION=on)" : "off (npm run demo -- --srs turns it on)"}`,
      "",
      "Try:",
      ...lines,
      "",
      "Ctrl-C stops both.",
      "",
    ].join("\n"),
  );

  const shutdown = () => {
    gateway
      .close()
      .then(() => localnet.close())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
}

/** A server that cannot listen ends the demo with the one line naming the setting to change. */
/** A bad setting ends the demo with its one-line message, as `npm run localnet` does. */
function settingsOrExit(read: () => LocalnetSettings): LocalnetSettings {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof LocalnetSettingError)) throw error;
    console.error(error.message);
    process.exit(2);
  }
}

function exitOnListenFailure(target: ListenTarget): (error: unknown) => never {
  return (error) => {
    const line = listenFailure(error, target);
    if (line === undefined) throw error;
    console.error(line);
    process.exit(1);
  };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
