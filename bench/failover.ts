import autocannon from "autocannon";
import { DEMO_FIXTURE_PATH, type Fault, type Localnet, loadFixtureFile, startLocalnet } from "../src/localnet/index.js";
import { startChildGateway } from "../testkit/child-gateway.js";
import { gatewayOverrides, settingsFor } from "./settings.js";

/*
 * `npm run bench -- failover`: `/resolve` latency over two RPC endpoints
 * (RPC_URL="a,b") at 20 ms per RPC answer, when the first endpoint fails
 * 10% of reads: fast (HTTP 503) or by never answering, the latter without
 * and with hedging (RPC_HEDGE_MS). One healthy endpoint is the reference.
 * Each variant is a fresh gateway process started as `npm start` starts it.
 */

const { durationS, connections, latencyMs, failureRate, hedgeMs } = settingsFor("failover");
const PATH = "/resolve/plain.sns";

interface Variant {
  readonly name: string;
  readonly endpoints: 1 | 2;
  readonly fault?: Fault;
  readonly env?: Record<string, string>;
}

const variants: Variant[] = [
  { name: "one endpoint, healthy", endpoints: 1 },
  {
    name: "two, first answers 503 to 10%",
    endpoints: 2,
    fault: { kind: "http-status", status: 503, probability: failureRate },
  },
  { name: "two, first never answers 10%", endpoints: 2, fault: { kind: "hang", probability: failureRate } },
  {
    name: `two, first never answers 10%, RPC_HEDGE_MS=${hedgeMs}`,
    endpoints: 2,
    fault: { kind: "hang", probability: failureRate },
    env: { RPC_HEDGE_MS: String(hedgeMs) },
  },
];

const ledger = await loadFixtureFile(DEMO_FIXTURE_PATH);
const localnets: Localnet[] = await Promise.all([0, 1].map(() => startLocalnet({ ledger, latencyMs })));
const rows: string[] = [];
try {
  for (const variant of variants) {
    const [first, second] = localnets as [Localnet, Localnet];
    const urls = variant.endpoints === 1 ? [first.url] : [first.url, second.url];
    const gateway = await startChildGateway({ ...gatewayOverrides(), RPC_URL: urls.join(","), ...variant.env });
    try {
      // Warm-up on healthy endpoints: connections, JIT, `.sol` cutoff knowledge.
      await autocannon({ url: gateway.url + PATH, connections, duration: 2 });
      first.setFault(variant.fault ?? null);
      first.resetStats();
      second.resetStats();
      const result = await autocannon({ url: gateway.url + PATH, connections, duration: durationS });
      first.setFault(null);
      const { p50, p90, p99, max } = result.latency;
      const failed = result.non2xx + result.errors + result.timeouts;
      rows.push(
        `| ${variant.name} | ${Math.round(result.requests.average)} | ${p50} | ${p90} | ${p99} | ${max} | ${failed} | ` +
          `${first.stats.httpRequests} / ${second.stats.httpRequests} |`,
      );
    } finally {
      first.setFault(null);
      await gateway.stop();
    }
  }
} finally {
  await Promise.all(localnets.map((localnet) => localnet.close()));
}
console.log(`GET ${PATH}, c${connections}, ${durationS} s per variant, ${latencyMs} ms per RPC answer\n`);
console.log("| variant | req/s | p50 ms | p90 ms | p99 ms | max ms | non-2xx + errors | RPC requests first / second |");
console.log("|---|---|---|---|---|---|---|---|");
for (const row of rows) console.log(row);
