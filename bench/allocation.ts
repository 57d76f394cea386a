import { Session } from "node:inspector/promises";
import { loadConfig } from "../src/config.js";
import { DEMO_FIXTURE_PATH, loadFixtureFile, startLocalnet } from "../src/localnet/index.js";
import { startGateway } from "../src/platform/node/gateway.js";
import { createNodeLog } from "../src/platform/node/log.js";
import { gatewayOverrides, settingsFor } from "./settings.js";
import { fetchAll, runLoad } from "./load.js";
import { type HeapProfileNode, formatHeapTally, tallyHeapProfile } from "./heap-profile.js";

// `npm run bench -- alloc`: bytes allocated per answer, by package and by function, from V8's sampling
// heap profiler with collected objects included (what the young generation has to scavenge).
// Gateway, localnet and load generator share this process: their rows are labelled apart.

const {
  durationS: DURATION_S,
  connections: CONNECTIONS,
  latencyMs: LATENCY_MS,
  survivors: SURVIVORS,
} = settingsFor("alloc");
const ledger = await loadFixtureFile(DEMO_FIXTURE_PATH);
const localnet = await startLocalnet({ ledger, latencyMs: LATENCY_MS });
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
  // BENCH_SURVIVORS=1 leaves out what died young: what remains was copied by a scavenge, and what outlives two is
  // promoted and marked again by a full collection, the cost of requests that wait.
  includeObjectsCollectedByMinorGC: !SURVIVORS,
});
const result = await runLoad({ ...load, durationS: DURATION_S });
const { profile } = (await session.post("HeapProfiler.stopSampling")) as { profile: { head: HeapProfileNode } };
session.disconnect();
await gateway.close();
await localnet.close();

const tally = tallyHeapProfile(profile.head);
const total = [...tally.byArea.values()].reduce((a, b) => a + b, 0);
console.log(
  `${result.responses} answers at c${CONNECTIONS}, ${LATENCY_MS} ms RPC, in ${DURATION_S} s, ${result.mismatches} mismatches`,
);
console.log(
  `${(total / Math.max(1, result.responses) / 1024).toFixed(2).padStart(7)} KB ${SURVIVORS ? "outliving a scavenge" : "allocated"} per answer in all (gateway, localnet and load generator)`,
);
console.log(`\n${formatHeapTally(tally, result.responses, 15, Number(process.env.BENCH_SITES ?? 25))}`);
process.exit(0);
