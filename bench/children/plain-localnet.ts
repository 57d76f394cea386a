import { startLocalnet } from "../../src/localnet/index.js";
import { serveParent } from "../ipc.js";
import { plainLedger } from "../plain-names.js";

// Localnet child of the bulk bench's CPU part: the plain names of BENCH_SEED (bench/plain-names.ts).

const ledger = plainLedger(Number(process.env.BENCH_SEED ?? "1"), Number(process.env.BENCH_NAMES ?? "1000"));
const localnet = await startLocalnet({ ledger, latencyMs: 0 });

serveParent(
  { kind: "ready", url: localnet.url, info: { accounts: ledger.size } },
  { stats: () => localnet.stats, reset: () => localnet.resetStats() },
  () => localnet.close(),
);
