import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import type { SdkOutcome } from "../testkit/chain-gen.js";
import { createRng } from "../testkit/rng.js";
import { BUILD_DIR, buildChildren, childScript } from "./build.js";
import { Child } from "./child.js";
import type { Usage } from "./ipc.js";
import { type Expected, fetchAll, runLoad } from "./load.js";
import { summarizeProfile } from "./profile.js";
import { type TargetCheck, formatTargets } from "./report.js";
import type { WorkingSetEntry } from "./working-set.js";
import { pathOf } from "./workload.js";
import { gatewayOverrides, settingsFor } from "./settings.js";
import { NPM_START } from "../testkit/npm-start.js";

// `npm run bench -- scale`: what the gateway's per-name memory costs when the
// working set grows. For each size N (1,000 and 100,000 names by default) a
// fresh gateway first resolves every name once (the warm pass), then answers
// a measured window of repeat lookups drawn uniformly from those N names.
// A repeat lookup of a name whose memo entries fit costs no hashing or curve
// work, so its CPU should not depend on N; RSS shows what the memos hold.

const RESULTS_DIR = fileURLToPath(new URL("./results/", import.meta.url));
const MB = 1024 * 1024;

const knobs = settingsFor("scale");
const options = {
  ...knobs,
  /** Fresh gateways per size; each measures once. */
  rounds: Math.max(1, knobs.rounds),
  gatewayNodeFlags: knobs.gatewayNodeFlags ?? NPM_START.nodeFlags,
  out: knobs.out ?? `${RESULTS_DIR}scale-latest.json`,
  /** CPU-profile the gateway during each repeat window (bench/results/profiles/). */
  profile: knobs.profile === "1",
};
const profileDir = `${RESULTS_DIR}profiles/scale-${new Date().toISOString().replace(/[:.]/g, "-")}`;
if (options.sizes.some((n) => !Number.isInteger(n) || n < 50))
  throw new Error("BENCH_NAMES: comma-separated name counts of at least 50");

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (message: string) => console.log(`[scale ${new Date().toISOString().slice(11, 19)}] ${message}`);

interface LocalnetStats {
  readonly httpRequests: number;
  readonly calls: number;
}

/** The generated states are cached per seed, count, pool and generator source (see children/localnet.ts). */
function workingSetCacheFile(names: number): string {
  const hash = createHash("sha256");
  const generator = readdirSync(new URL("../testkit/chain-gen/", import.meta.url)).map(
    (file) => `../testkit/chain-gen/${file}`,
  );
  for (const file of ["../testkit/chain-gen.ts", ...generator.sort(), "../testkit/rng.ts", "./working-set.ts"]) {
    hash.update(readFileSync(new URL(file, import.meta.url)));
  }
  return `${BUILD_DIR}working-set-s${options.seed}-n${names}-p${names}-${hash.digest("hex").slice(0, 12)}.v8`;
}

const memoryOf = (u: Usage) => ({
  rssMB: round(u.rssBytes / MB),
  peakRssMB: round(u.maxRssBytes / MB),
  heapTotalMB: round(u.heap.total / MB),
  heapUsedMB: round(u.heap.used / MB),
  externalMB: round(u.heap.external / MB),
  arrayBuffersMB: round(u.heap.arrayBuffers / MB),
});
type Memory = ReturnType<typeof memoryOf>;

/** What the gateway's answer should be by chain-gen's SDK expectation (the deliberate 422 for undecodable data). */
function agreesWithSdk(answer: Expected, entry: WorkingSetEntry): boolean | undefined {
  const sdk: SdkOutcome | undefined = entry.sdk;
  if (!sdk) return undefined;
  if (entry.undecodable) return answer.status === 422;
  if (sdk.kind === "key") return answer.status === 200 && answer.body === JSON.stringify({ s: "ok", result: sdk.key });
  const status: Record<string, number> = {
    DomainDoesNotExist: 404,
    RecordMalformed: 422,
    WrongValidation: 422,
    InvalidRoA: 422,
  };
  return answer.status === (status[sdk.error] ?? 500);
}

interface SizeRun {
  readonly names: number;
  readonly round: number;
  readonly atStart: Memory;
  readonly warm: {
    readonly paths: number;
    readonly seconds: number;
    readonly cpuUsPerAnswer: number;
    readonly sdkDisagreements: number;
    readonly memory: Memory;
  };
  readonly repeat: {
    readonly rps: number;
    readonly p50Ms: number;
    readonly p99Ms: number;
    readonly cpuUsPerAnswer: number;
    readonly rpcPer1k: number;
    readonly callsPer1k: number;
    readonly mismatches: number;
    readonly errors: number;
    readonly otherCores: number | null;
    readonly memoryEnd: Memory;
    readonly memoryAfter: Memory;
  };
  /** Entries and estimated bytes of each memo (null when the gateway under test does not report them). */
  readonly memos: { readonly afterWarm: MemoStats | null; readonly afterRepeat: MemoStats | null };
}

type MemoStats = Record<string, { entries: number; bytes: number; budget: number }>;
const formatMemos = (stats: MemoStats) =>
  Object.entries(stats)
    .map(
      ([name, m]) =>
        `${name} ${m.entries.toLocaleString("en-US")} (${round(m.bytes / MB)} of ${round(m.budget / MB)} MB)`,
    )
    .join(", ");

/** Busy CPU seconds of the whole machine, from /proc/stat (null off Linux). */
function machineBusyS(): number | null {
  try {
    const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
    return (fields.slice(0, 8).reduce((a, b) => a + b, 0) - idle) / 100;
  } catch {
    return null;
  }
}

async function measureSize(names: number): Promise<SizeRun[]> {
  const baseEnv = { PATH: process.env.PATH, NODE_ENV: "production" };
  const cacheFile = workingSetCacheFile(names);
  log(`N=${names}: localnet (working set from ${cacheFile.slice(BUILD_DIR.length)} if cached, else generated) ...`);
  const localnet = await Child.start("localnet", childScript("children/localnet"), {
    env: {
      ...baseEnv,
      BENCH_SEED: String(options.seed),
      BENCH_NAMES: String(names),
      // Every name its own owner (about): on-curve memos must hold N owners, not 48.
      BENCH_IDENTITY_POOL: String(names),
      BENCH_WORKING_SET_CACHE: cacheFile,
    },
  });
  const runs: SizeRun[] = [];
  try {
    const { entries, accounts, buildMs, cached } = localnet.info as {
      entries: WorkingSetEntry[];
      accounts: number;
      buildMs: number;
      cached: boolean;
    };
    log(
      `N=${names}: ${entries.length} names, ${accounts} accounts (${cached ? "read from cache" : "generated"} in ${buildMs} ms)`,
    );

    // One path per name: `.sol` for a share of the names that take both suffixes, as the main bench's mix.
    const rng = createRng(options.seed + 1);
    const paths = entries.map((entry) =>
      pathOf(
        entry.name,
        entry.suffixes.length === 1 ? entry.suffixes[0]! : rng.next() < options.solShare ? ".sol" : ".sns",
      ),
    );
    const entryOf = new Map(paths.map((path, i) => [path, entries[i]!]));
    const branchOf = new Map(paths.map((path, i) => [path, entries[i]!.branch]));
    // Repeat lookups: uniform over the names already looked up.
    const sequence = Array.from({ length: 1 << 18 }, () => paths[Math.floor(rng.next() * paths.length)]!);

    for (let r = 0; r < options.rounds; r++) {
      const env: Record<string, string | undefined> = {
        ...baseEnv,
        RPC_URL: localnet.url,
        PORT: "0",
        HOST: "127.0.0.1",
        LOG_LEVEL: "info",
        SHUTDOWN_GRACE_MS: "1000",
        ...gatewayOverrides(),
        RESOLVE_CACHE_TTL_MS: "0",
      };
      const gateway = await Child.start("gateway", childScript("children/gateway"), {
        env,
        execArgv: options.gatewayNodeFlags,
      });
      try {
        await localnet.call("latency", 0);
        const start = await gateway.usage();

        // Warm pass: every name once.
        const warmStarted = performance.now();
        const answers = await fetchAll(gateway.url, paths, 16);
        const warmS = (performance.now() - warmStarted) / 1000;
        await sleep(500);
        const warmed = await gateway.usage();
        const memosWarm = await gateway.call<MemoStats>("memos").catch(() => null);
        const expected = new Map(paths.map((path, i) => [path, answers[i]!]));
        const sdkDisagreements = paths.filter(
          (path, i) => agreesWithSdk(answers[i]!, entryOf.get(path)!) === false,
        ).length;
        log(
          `N=${names} round ${r + 1}: warm pass ${paths.length} paths in ${round(warmS)} s, ` +
            `${round((warmed.cpuUs - start.cpuUs) / paths.length)} µs CPU each, RSS ${round(warmed.rssBytes / MB)} MB ` +
            `(heap used ${round(warmed.heap.used / MB)} MB), ${sdkDisagreements} answers differ from chain-gen's SDK expectation`,
        );

        if (memosWarm) log(`N=${names} round ${r + 1}: memos after the warm pass: ${formatMemos(memosWarm)}`);

        // Repeat lookups: a short unmeasured run first (connections, JIT), then the window.
        const common = { url: gateway.url, connections: options.connections, sequence, expected, branchOf };
        if (options.warmupS > 0) await runLoad({ ...common, durationS: options.warmupS, start: 0 });
        await sleep(200);
        await localnet.call("reset");
        if (options.profile) await gateway.call("profileStart");
        const s0 = await gateway.usage();
        const m0 = machineBusyS();
        const p0 = process.cpuUsage();
        const l0 = await localnet.usage();
        const load = await runLoad({ ...common, durationS: options.durationS, start: 100_003 });
        const [s1, l1, stats] = await Promise.all([
          gateway.usage(),
          localnet.usage(),
          localnet.call<LocalnetStats>("stats"),
        ]);
        const p1 = process.cpuUsage(p0);
        const m1 = machineBusyS();
        if (options.profile) {
          const file = `${profileDir}/gateway-n${names}-r${r + 1}.cpuprofile`;
          await gateway.call("profileStop", file);
          log(`profile ${file}\n${summarizeProfile(file, 20)}`);
        }
        await sleep(500);
        const after = await gateway.usage();
        const memosAfter = await gateway.call<MemoStats>("memos").catch(() => null);
        if (memosAfter) log(`N=${names} round ${r + 1}: memos after the repeat window: ${formatMemos(memosAfter)}`);
        const n = Math.max(1, load.responses);
        const ownCpuS = (s1.cpuUs - s0.cpuUs + l1.cpuUs - l0.cpuUs + p1.user + p1.system) / 1e6;
        const run: SizeRun = {
          names,
          round: r + 1,
          atStart: memoryOf(start),
          warm: {
            paths: paths.length,
            seconds: round(warmS),
            cpuUsPerAnswer: round((warmed.cpuUs - start.cpuUs) / paths.length),
            sdkDisagreements,
            memory: memoryOf(warmed),
          },
          repeat: {
            rps: round(load.rps, 0),
            p50Ms: round(load.p50Ms),
            p99Ms: round(load.p99Ms),
            cpuUsPerAnswer: round((s1.cpuUs - s0.cpuUs) / n),
            rpcPer1k: round((stats.httpRequests * 1000) / n, 1),
            callsPer1k: round((stats.calls * 1000) / n, 1),
            mismatches: load.mismatches,
            errors: load.errors + load.timeouts,
            otherCores: m0 !== null && m1 !== null ? round((m1 - m0 - ownCpuS) / load.elapsedS, 2) : null,
            memoryEnd: memoryOf(s1),
            memoryAfter: memoryOf(after),
          },
          memos: { afterWarm: memosWarm, afterRepeat: memosAfter },
        };
        log(
          `N=${names} round ${r + 1}: repeat c${options.connections} ${run.repeat.rps} req/s, p50 ${run.repeat.p50Ms} ms, ` +
            `p99 ${run.repeat.p99Ms} ms, CPU ${run.repeat.cpuUsPerAnswer} µs/answer, RPC/1k ${run.repeat.rpcPer1k}, ` +
            `RSS ${run.repeat.memoryAfter.rssMB} MB (peak ${run.repeat.memoryAfter.peakRssMB}), ` +
            `mismatches ${load.mismatches}, other load ${run.repeat.otherCores ?? "n/a"} cores`,
        );
        for (const m of load.mismatchExamples.slice(0, 3)) {
          log(`    ${m.path}: warm pass ${m.expected?.status} ${m.expected?.body}, now ${m.got.status} ${m.got.body}`);
        }
        runs.push(run);
      } finally {
        await gateway.stop();
      }
    }
  } finally {
    await localnet.stop();
  }
  return runs;
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

function formatTable(runs: readonly SizeRun[]): string {
  const header = [
    "names",
    "round",
    "RSS start",
    "RSS warm",
    "heap used",
    "external",
    "warm µs",
    "req/s",
    "p50 ms",
    "p99 ms",
    "CPU µs/ans",
    "RPC/1k",
    "RSS after",
    "peak",
    "mismatch",
    "other",
  ];
  const rows = runs.map((r) => [
    r.names.toLocaleString("en-US"),
    String(r.round),
    String(r.atStart.rssMB),
    String(r.warm.memory.rssMB),
    String(r.warm.memory.heapUsedMB),
    String(r.warm.memory.externalMB),
    String(r.warm.cpuUsPerAnswer),
    r.repeat.rps.toLocaleString("en-US"),
    String(r.repeat.p50Ms),
    String(r.repeat.p99Ms),
    String(r.repeat.cpuUsPerAnswer),
    String(r.repeat.rpcPer1k),
    String(r.repeat.memoryAfter.rssMB),
    String(r.repeat.memoryAfter.peakRssMB),
    String(r.repeat.mismatches),
    r.repeat.otherCores === null ? "n/a" : String(r.repeat.otherCores),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

async function main(): Promise<void> {
  const startedAt = Date.now();
  log(`compiling server children (tsc) ...`);
  const build = buildChildren();
  if (build.diagnostics)
    log(`tsc reported (JavaScript was emitted anyway):\n${build.diagnostics.split("\n").slice(0, 10).join("\n")}`);
  log(`gateway node flags: ${options.gatewayNodeFlags.join(" ") || "(none)"}`);
  if (options.profile) mkdirSync(profileDir, { recursive: true });
  const runs: SizeRun[] = [];
  for (const names of options.sizes) runs.push(...(await measureSize(names)));

  console.log(`\n${formatTable(runs)}\n`);
  console.log(
    "RSS start/warm: gateway RSS MB when started and after the warm pass (every name resolved once); heap used and\n" +
      "external after the warm pass. warm µs: CPU per first lookup. req/s … peak: repeat lookups (uniform over the N\n" +
      `names, c${options.connections}, ${options.durationS} s, 0 ms RPC latency); CPU µs/ans is gateway CPU per answer; RSS after\n` +
      "the window drained; peak: getrusage maxrss. mismatch: repeat answers that differ from the warm pass's.\n",
  );

  const bySize = new Map<number, SizeRun[]>();
  for (const run of runs) bySize.set(run.names, [...(bySize.get(run.names) ?? []), run]);
  const small = Math.min(...options.sizes);
  const large = Math.max(...options.sizes);
  const cpuOf = (n: number) => median((bySize.get(n) ?? []).map((r) => r.repeat.cpuUsPerAnswer));
  const checks: TargetCheck[] = [];
  if (small !== large) {
    const ratio = cpuOf(large) / cpuOf(small);
    checks.push({
      target: `repeat lookup CPU at ${large.toLocaleString("en-US")} names / at ${small.toLocaleString("en-US")} <= 2`,
      value: `${round(ratio, 2)} (${cpuOf(large)} / ${cpuOf(small)} µs per answer)`,
      pass: ratio <= 2,
    });
  }
  const largeRuns = bySize.get(large) ?? [];
  const warmRss = Math.max(...largeRuns.map((r) => r.warm.memory.rssMB));
  const peakRss = Math.max(...largeRuns.map((r) => r.repeat.memoryAfter.peakRssMB));
  checks.push({
    target: `RSS at ${large.toLocaleString("en-US")} distinct names <= 150 MB`,
    value: `${warmRss} MB after the warm pass, peak ${peakRss} MB after the repeat window`,
    pass: Math.max(warmRss, peakRss) <= 150,
  });
  const mismatches = runs.reduce((sum, r) => sum + r.repeat.mismatches, 0);
  checks.push({
    target: "repeat answers equal the warm pass's",
    value: `${mismatches} mismatches`,
    pass: mismatches === 0,
  });
  console.log(`${formatTargets(checks)}\n`);

  mkdirSync(RESULTS_DIR, { recursive: true });
  const report = {
    generatedAt: new Date().toISOString(),
    wallClockS: round((Date.now() - startedAt) / 1000),
    machine: { node: process.version, cpus: cpus().length, cpuModel: cpus()[0]?.model, loadAverage: loadavg() },
    options,
    runs,
    targets: checks,
  };
  writeFileSync(options.out, `${JSON.stringify(report, null, 2)}\n`);
  log(`wrote ${options.out} (${round((Date.now() - startedAt) / 1000)} s in all)`);
  if (mismatches > 0) process.exitCode = 1;
}

await main();
