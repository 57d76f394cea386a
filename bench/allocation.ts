import { Session } from "node:inspector/promises";
import { loadConfig } from "../src/config.js";
import { DEMO_FIXTURE_PATH, loadFixtureFile, startLocalnet } from "../src/localnet/index.js";
import { startGateway } from "../src/platform/node/gateway.js";
import { createNodeLog } from "../src/platform/node/log.js";
import { gatewayOverrides, settingsFor } from "./settings.js";
import { fetchAll, runLoad } from "./load.js";

// `npm run bench -- alloc`: bytes allocated per answer, by package and by function, from V8's sampling
// heap profiler with collected objects included (what the young generation has to scavenge).
// Gateway, localnet and load generator share this process: their rows are labelled apart.

interface ProfileNode {
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly selfSize: number;
  readonly children?: readonly ProfileNode[];
}

const { durationS: DURATION_S, connections: CONNECTIONS } = settingsFor("alloc");
const AREAS = ["src/localnet", "src/sns", "src/rpc", "src/http", "src/platform", "src/service", "bench/"];

function areaOf(url: string): string {
  if (!url) return "(V8 and native)";
  const own = AREAS.find((area) => url.includes(area));
  if (own) return own;
  if (url.startsWith("node:")) return "node core";
  const inModules = url.split("/node_modules/").at(-1)!;
  return url.includes("/node_modules/")
    ? inModules
        .split("/")
        .slice(0, inModules.startsWith("@") ? 2 : 1)
        .join("/")
    : url;
}

function tally(node: ProfileNode, byArea: Map<string, number>, bySite: Map<string, number>): void {
  const { functionName, url, lineNumber } = node.callFrame;
  if (node.selfSize > 0) {
    const area = areaOf(url);
    byArea.set(area, (byArea.get(area) ?? 0) + node.selfSize);
    const site = `${functionName || "(anonymous)"} ${url.split("/").at(-1) ?? ""}:${lineNumber + 1} [${area}]`;
    bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
  }
  for (const child of node.children ?? []) tally(child, byArea, bySite);
}

const ledger = await loadFixtureFile(DEMO_FIXTURE_PATH);
const localnet = await startLocalnet({ ledger });
// The request log as `npm start` writes it (the template and the buffered destination), into /dev/null.
// Gateway settings from the environment: RESOLVE_CACHE_TTL_MS=60000 makes every measured answer a cache hit.
const config = loadConfig({
  LOG_LEVEL: "info",
  ...gatewayOverrides(),
  PORT: "0",
  HOST: "127.0.0.1",
  RPC_URL: localnet.url,
});
const gateway = await startGateway(config, createNodeLog(config.logLevel, "/dev/null").logger);
// The demo's names: owners, V1 and V2 records, a tokenized name, a missing one.
const paths = [
  "bonfida.sns",
  "v2-sol.sns",
  "stale-v2.sns",
  "v1-sol.sns",
  "missing-name.sns",
  "bonfida.sol",
  "nft.sns",
].map((name) => `/resolve/${name}`);
const answers = await fetchAll(gateway.url, paths, 4);
const expected = new Map(paths.map((path, i) => [path, answers[i]!]));
const load = { url: gateway.url, connections: CONNECTIONS, sequence: paths, start: 0, expected, branchOf: new Map() };
await runLoad({ ...load, durationS: 2 });

const session = new Session();
session.connect();
await session.post("HeapProfiler.startSampling", {
  samplingInterval: 4096,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
});
const result = await runLoad({ ...load, durationS: DURATION_S });
const { profile } = (await session.post("HeapProfiler.stopSampling")) as { profile: { head: ProfileNode } };
session.disconnect();
await gateway.close();
await localnet.close();

const byArea = new Map<string, number>();
const bySite = new Map<string, number>();
tally(profile.head, byArea, bySite);
const perAnswer = (bytes: number) => (bytes / Math.max(1, result.responses) / 1024).toFixed(2).padStart(7);
const total = [...byArea.values()].reduce((a, b) => a + b, 0);
console.log(`${result.responses} answers at c${CONNECTIONS} in ${DURATION_S} s, ${result.mismatches} mismatches`);
console.log(`${perAnswer(total)} KB allocated per answer in all (gateway, localnet and load generator)`);
console.log("\nKB per answer, by package or folder:");
for (const [area, bytes] of [...byArea].sort((a, b) => b[1] - a[1]).slice(0, 15))
  console.log(`${perAnswer(bytes)}  ${area}`);
console.log("\nKB per answer, by allocating function:");
for (const [site, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, 25))
  console.log(`${perAnswer(bytes)}  ${site}`);
process.exit(0);
