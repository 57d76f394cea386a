import { startLocalnet } from "../../src/localnet/index.js";
import { serveParent } from "../ipc.js";
import { generateWorkingSet } from "../working-set.js";

// Localnet child: owns the chain state and the RPC counters both servers are measured against.

const seed = Number(process.env.BENCH_SEED ?? "1");
const names = Number(process.env.BENCH_NAMES ?? "1000");

const started = performance.now();
const { ledger, entries } = generateWorkingSet(seed, names);
const localnet = await startLocalnet({ ledger, latencyMs: 0 });

serveParent(
  {
    kind: "ready",
    url: localnet.url,
    info: { entries, accounts: ledger.size, buildMs: Math.round(performance.now() - started) },
  },
  {
    stats: () => localnet.stats,
    reset: () => localnet.resetStats(),
    latency: (ms) => localnet.setLatency(Number(ms)),
  },
  () => localnet.close(),
);
