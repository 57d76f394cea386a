import { gzipSync } from "node:zlib";
import autocannon from "autocannon";
import { DEMO_FIXTURE_PATH, loadFixtureFile, startLocalnet } from "../src/localnet/index.js";
import { startChildGateway } from "../testkit/child-gateway.js";
import { startWorkerdGateway } from "../testkit/workerd-gateway.js";
// @ts-expect-error: a plain ES module shared with `npm run build:worker`
import { WORKER_OUTFILE, bundleWorker } from "../scripts/worker-bundle.mjs";
import { readFileSync } from "node:fs";
import { settingsFor } from "./settings.js";

/*
 * `npm run bench -- workerd`: `/resolve` throughput at 64 concurrent clients,
 * the Node build (a child process with production flags) against the
 * Workers build under workerd (Miniflare), same localnet, same run, cache
 * off; then the Workers bundle's size, raw and gzip.
 */

const DURATION_S = settingsFor("workerd").durationS;
const CONNECTIONS = 64;
const PATH = "/resolve/plain.sns";

async function throughput(url: string): Promise<{ rps: number; p99: number; non2xx: number }> {
  // Warm-up: connections, JIT, `.sol` cutoff knowledge.
  await autocannon({ url: url + PATH, connections: CONNECTIONS, duration: 2 });
  const result = await autocannon({ url: url + PATH, connections: CONNECTIONS, duration: DURATION_S });
  return { rps: result.requests.average, p99: result.latency.p99, non2xx: result.non2xx + result.errors };
}

const localnet = await startLocalnet({ ledger: await loadFixtureFile(DEMO_FIXTURE_PATH) });
// Request logs on, as deployed (the Node child reports its URL in its "listening" line).
const env = { RPC_URL: localnet.url, LOG_LEVEL: "info" };
try {
  const node = await startChildGateway(env);
  const onNode = await throughput(node.url).finally(() => node.stop());
  const workerd = await startWorkerdGateway({ ...env, PORT: "0", HOST: "127.0.0.1" });
  const onWorkerd = await throughput(workerd.url).finally(() => workerd.close());
  const row = (name: string, r: typeof onNode) =>
    `| ${name} | ${Math.round(r.rps)} | ${r.p99} | ${r.non2xx} |`;
  console.log(`GET ${PATH}, c${CONNECTIONS}, ${DURATION_S} s, localnet without latency\n`);
  console.log("| target | req/s | p99 ms | non-2xx + errors |\n|---|---|---|---|");
  console.log(row("Node (undici)", onNode));
  console.log(row("workerd (fetch)", onWorkerd));
  console.log(`\nratio workerd/Node: ${(onWorkerd.rps / onNode.rps).toFixed(2)}`);
  await bundleWorker();
  const bytes = readFileSync(WORKER_OUTFILE);
  console.log(`bundle ${WORKER_OUTFILE}: ${(bytes.length / 1024).toFixed(1)} KiB, gzip ${(gzipSync(bytes).length / 1024).toFixed(1)} KiB`);
} finally {
  await localnet.close();
}
