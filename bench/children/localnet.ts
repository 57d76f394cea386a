import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { deserialize, serialize } from "node:v8";
import { startLocalnet } from "../../src/localnet/index.js";
import { buildLedger } from "../../testkit/chain-gen.js";
import { serveParent } from "../ipc.js";
import { type WorkingSetParts, generateWorkingSetParts } from "../working-set.js";

// Localnet child: owns the chain state and the RPC counters both servers are measured against.

const seed = Number(process.env.BENCH_SEED ?? "1");
const names = Number(process.env.BENCH_NAMES ?? "1000");
const identityPool = process.env.BENCH_IDENTITY_POOL ? Number(process.env.BENCH_IDENTITY_POOL) : undefined;
/**
 * Where the generated states are kept between runs (the scale bench sets it):
 * 100,000 names take minutes to generate (five derivations and often a
 * signature each) and a second or two to read back. The parent names the file
 * by seed, count, pool and a hash of the generator's sources.
 */
const cacheFile = process.env.BENCH_WORKING_SET_CACHE?.trim() || undefined;

function loadParts(): { parts: WorkingSetParts; cached: boolean } {
  if (cacheFile && existsSync(cacheFile))
    return { parts: deserialize(readFileSync(cacheFile)) as WorkingSetParts, cached: true };
  const parts = generateWorkingSetParts(seed, names, identityPool === undefined ? {} : { identityPool });
  if (cacheFile) {
    // Written aside and renamed: an interrupted run never leaves a truncated cache behind.
    writeFileSync(`${cacheFile}.tmp`, serialize(parts));
    renameSync(`${cacheFile}.tmp`, cacheFile);
  }
  return { parts, cached: false };
}

const started = performance.now();
const { parts, cached } = loadParts();
const ledger = buildLedger(parts.states);
const { entries } = parts;
const localnet = await startLocalnet({ ledger, latencyMs: 0 });

serveParent(
  {
    kind: "ready",
    url: localnet.url,
    info: { entries, accounts: ledger.size, buildMs: Math.round(performance.now() - started), cached },
  },
  {
    stats: () => localnet.stats,
    reset: () => localnet.resetStats(),
    latency: (ms) => localnet.setLatency(Number(ms)),
  },
  () => localnet.close(),
);
