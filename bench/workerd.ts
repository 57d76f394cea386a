import { gzipSync } from "node:zlib";
import autocannon from "autocannon";
import { sha256 } from "@noble/hashes/sha2.js";
import {
  DEMO_FIXTURE_PATH,
  Ledger,
  buildDomainAccounts,
  encodeNftRecord,
  identity,
  loadFixtureFile,
  startLocalnet,
  tokenizeDomain,
} from "../src/localnet/index.js";
import { bytesToAddress, utf8 } from "../src/sns/bytes.js";
import { NAME_TOKENIZER_ID } from "../src/sns/constants.js";
import { deriveDomainKey } from "../src/sns/derive.js";
import { startChildGateway } from "../testkit/child-gateway.js";
import { startWorkerdGateway } from "../testkit/workerd-gateway.js";
// @ts-expect-error: a plain ES module shared with `npm run build:worker`
import { WORKER_OUTFILE, bundleWorker, workerBuildOptions } from "../scripts/worker-bundle.mjs";
import { build } from "esbuild";
import { fileURLToPath } from "node:url";
import { cpuNsOf, descendantsNamed } from "./process-cpu.js";
import { readFileSync } from "node:fs";
import { settingsFor, ONE_CLIENT_UNLIMITED } from "./settings.js";

/*
 * `npm run bench -- workerd`: `/resolve` throughput at 64 concurrent clients,
 * the Node build (a child process with production flags) against the
 * Workers build under workerd (Miniflare), same localnet, same run, cache
 * off; then `/domains` of a wallet holding tokenized domains, with the
 * tokenized index (Node in process, Workers in its Durable Object) and
 * without it (Workers unbound: a tokenizer scan per mint), over a localnet
 * that answers after BENCH_LATENCY_MS; then the Workers bundle's size, raw
 * and gzip.
 *
 * CPU per request is the server's, all threads (for workerd, every workerd
 * process below this one), over the measured window. Beside the gateway runs
 * a constant Worker (bench/constant-worker.ts: one fixed envelope, bundled
 * with the same options): its CPU per request is what workerd's HTTP path
 * costs alone; its start-up (Miniflare ready, then the first answer) is the
 * floor the gateway's isolate start-up is compared with.
 */

const { durationS: DURATION_S, latencyMs: LATENCY_MS, holdings: HOLDINGS } = settingsFor("workerd");
const CONNECTIONS = 64;
const PATH = "/resolve/plain.sns";

async function throughput(
  url: string,
  cpuNs: () => number,
  path = PATH,
): Promise<{ rps: number; p99: number; non2xx: number; cpuMsPerRequest: number }> {
  // Warm-up: connections, JIT, `.sol` cutoff knowledge.
  await autocannon({ url: url + path, connections: CONNECTIONS, duration: 2 });
  const before = cpuNs();
  const result = await autocannon({ url: url + path, connections: CONNECTIONS, duration: DURATION_S });
  const cpuMsPerRequest = (cpuNs() - before) / 1e6 / Math.max(1, result.requests.total);
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    non2xx: result.non2xx + result.errors,
    cpuMsPerRequest,
  };
}

const workerdCpuNs = () => descendantsNamed("workerd").reduce((sum, pid) => sum + cpuNsOf(pid), 0);

/** The constant Worker, bundled as `npm run build:worker` bundles the gateway. */
async function constantWorkerScript(): Promise<string> {
  const result = await build({
    ...workerBuildOptions,
    entryPoints: [fileURLToPath(new URL("constant-worker.ts", import.meta.url))],
    write: false,
    minify: true,
  });
  return result.outputFiles![0]!.text;
}

const STARTS = 5;
const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Start-up of a Worker under workerd, median of STARTS fresh instances: wall ms until Miniflare is
 * ready (workerd up, the script compiled and its top level run) and workerd's CPU ms by then; then the
 * first answer's wall ms and the CPU ms it took (the gateway builds its app on its first request).
 */
async function startup(env: Record<string, string>, script?: string) {
  const samples: { readyMs: number; readyCpuMs: number; firstMs: number; firstCpuMs: number }[] = [];
  for (let i = 0; i < STARTS; i++) {
    const started = performance.now();
    const worker = await startWorkerdGateway(
      { ...env, PORT: "0", HOST: "127.0.0.1" },
      script === undefined ? {} : { script, indexObject: false },
    );
    try {
      const readyMs = performance.now() - started;
      const readyCpu = workerdCpuNs();
      const asked = performance.now();
      await (await fetch(worker.url + PATH)).arrayBuffer();
      samples.push({
        readyMs,
        readyCpuMs: readyCpu / 1e6,
        firstMs: performance.now() - asked,
        firstCpuMs: (workerdCpuNs() - readyCpu) / 1e6,
      });
    } finally {
      await worker.close();
    }
  }
  const of = (key: keyof (typeof samples)[number]) => Math.round(median(samples.map((s) => s[key])) * 10) / 10;
  return { readyMs: of("readyMs"), readyCpuMs: of("readyCpuMs"), firstMs: of("firstMs"), firstCpuMs: of("firstCpuMs") };
}

/** A tokenizer with 2,000 other active records, and a wallet holding HOLDINGS tokenized domains. */
function walletLedger(): { ledger: Ledger; holder: string } {
  const ledger = new Ledger();
  const key = (label: string, i: number) => bytesToAddress(sha256(utf8.encode(`bench-workerd:${label}:${i}`)));
  for (let i = 0; i < 2_000; i++) {
    const nameAccount = key("name", i);
    ledger.setAccount(key("record", i), {
      owner: NAME_TOKENIZER_ID,
      data: encodeNftRecord({ tag: 2, nonce: 255, nameAccount, owner: nameAccount, nftMint: key("mint", i) }),
    });
  }
  const holder = identity("collector").address;
  for (let i = 0; i < HOLDINGS; i++) {
    const name = `held${i}`;
    for (const { address, account } of buildDomainAccounts({ name, owner: holder }))
      ledger.setAccount(address, account);
    tokenizeDomain(ledger, { domainKey: deriveDomainKey(name), holder });
  }
  return { ledger, holder };
}

const DOMAINS_CONNECTIONS = 16;

/** `/domains` of the holder: throughput, p99, and the RPC calls one request causes once warm. */
async function domainsOn(url: string, holder: string, counted: Awaited<ReturnType<typeof startLocalnet>>) {
  const path = `/domains/${holder}`;
  // Warm-up: the index is built (or the object woken) and caught up.
  for (let i = 0; i < 5; i++) await (await fetch(url + path)).arrayBuffer();
  counted.resetStats();
  const answer = (await (await fetch(url + path)).json()) as { result: unknown[] };
  const calls = Object.entries(counted.stats.methods)
    .map(([method, n]) => `${method} ${n}`)
    .join(", ");
  const result = await autocannon({ url: url + path, connections: DOMAINS_CONNECTIONS, duration: DURATION_S });
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    non2xx: result.non2xx + result.errors,
    calls,
    found: answer.result.length,
  };
}

async function domainsSection(): Promise<void> {
  const { ledger, holder } = walletLedger();
  const chain = await startLocalnet({ ledger, latencyMs: LATENCY_MS });
  const env = { ...ONE_CLIENT_UNLIMITED, RPC_URL: chain.url, LOG_LEVEL: "info" };
  try {
    const node = await startChildGateway(env);
    const onNode = await domainsOn(node.url, holder, chain).finally(() => node.stop());
    const bound = await startWorkerdGateway({ ...env, PORT: "0", HOST: "127.0.0.1" });
    const withObject = await domainsOn(bound.url, holder, chain).finally(() => bound.close());
    const unbound = await startWorkerdGateway({ ...env, PORT: "0", HOST: "127.0.0.1" }, { indexObject: false });
    const scanning = await domainsOn(unbound.url, holder, chain).finally(() => unbound.close());
    console.log(
      `
GET /domains/<wallet with ${HOLDINGS} tokenized domains>, c${DOMAINS_CONNECTIONS}, ${DURATION_S} s, localnet answering after ${LATENCY_MS} ms
`,
    );
    console.log(
      "| target | req/s | p99 ms | non-2xx + errors | domains | RPC calls per request |\n|---|---|---|---|---|---|",
    );
    const row = (name: string, r: typeof onNode) =>
      `| ${name} | ${Math.round(r.rps)} | ${r.p99} | ${r.non2xx} | ${r.found} | ${r.calls} |`;
    console.log(row("Node, index in process", onNode));
    console.log(row("workerd, index object", withObject));
    console.log(row("workerd, unbound (scans)", scanning));
    console.log(`
ratio workerd with/without the index object: ${(withObject.rps / scanning.rps).toFixed(2)} req/s, ${(scanning.p99 / Math.max(1, withObject.p99)).toFixed(2)} × lower p99`);
  } finally {
    await chain.close();
  }
}

const localnet = await startLocalnet({ ledger: await loadFixtureFile(DEMO_FIXTURE_PATH) });
// Request logs on, as deployed (the Node child reports its URL in its "listening" line).
const env = { ...ONE_CLIENT_UNLIMITED, RPC_URL: localnet.url, LOG_LEVEL: "info" };
try {
  const constant = await constantWorkerScript();
  const node = await startChildGateway(env);
  const onNode = await throughput(node.url, () => cpuNsOf(node.process.pid!)).finally(() => node.stop());
  const workerd = await startWorkerdGateway({ ...env, PORT: "0", HOST: "127.0.0.1" });
  const onWorkerd = await throughput(workerd.url, workerdCpuNs).finally(() => workerd.close());
  const still = await startWorkerdGateway(
    { ...env, PORT: "0", HOST: "127.0.0.1" },
    { script: constant, indexObject: false },
  );
  const onConstant = await throughput(still.url, workerdCpuNs).finally(() => still.close());
  const row = (name: string, r: typeof onNode) =>
    `| ${name} | ${Math.round(r.rps)} | ${r.p99} | ${r.non2xx} | ${r.cpuMsPerRequest.toFixed(3)} |`;
  console.log(`GET ${PATH}, c${CONNECTIONS}, ${DURATION_S} s, localnet without latency\n`);
  console.log("| target | req/s | p99 ms | non-2xx + errors | CPU ms/request |\n|---|---|---|---|---|");
  console.log(row("Node (undici)", onNode));
  console.log(row("workerd (fetch)", onWorkerd));
  console.log(row("workerd, constant Worker", onConstant));
  console.log(
    `\nratio workerd/Node: ${(onWorkerd.rps / onNode.rps).toFixed(2)}; ` +
      `workerd CPU per request beyond the constant Worker: ${(onWorkerd.cpuMsPerRequest - onConstant.cpuMsPerRequest).toFixed(3)} ms`,
  );
  const gatewayStart = await startup(env);
  const constantStart = await startup(env, constant);
  console.log(`\nstart-up under workerd, median of ${STARTS} fresh instances\n`);
  console.log(
    "| Worker | ready ms | workerd CPU ms to ready | first answer ms | CPU ms of the first answer |\n|---|---|---|---|---|",
  );
  const startRow = (name: string, r: typeof gatewayStart) =>
    `| ${name} | ${r.readyMs} | ${r.readyCpuMs} | ${r.firstMs} | ${r.firstCpuMs} |`;
  console.log(startRow("gateway", gatewayStart));
  console.log(startRow("constant", constantStart));
  console.log(
    `\ngateway isolate start-up beyond the constant Worker: ${(gatewayStart.readyCpuMs - constantStart.readyCpuMs).toFixed(1)} ms CPU to ready, ` +
      `${(gatewayStart.firstCpuMs - constantStart.firstCpuMs).toFixed(1)} ms CPU more for the first answer`,
  );
  await domainsSection();
  await bundleWorker();
  const bytes = readFileSync(WORKER_OUTFILE);
  console.log(
    `bundle ${WORKER_OUTFILE}: ${(bytes.length / 1024).toFixed(1)} KiB, gzip ${(gzipSync(bytes).length / 1024).toFixed(1)} KiB`,
  );
} finally {
  await localnet.close();
}
