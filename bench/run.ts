import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { resolve as resolvePath } from "node:path";
import { fileURLToPath } from "node:url";
import type { SdkOutcome } from "../testkit/chain-gen.js";
import { NPM_START, startEnvFor } from "../testkit/npm-start.js";
import { createRng } from "../testkit/rng.js";
import { buildChildren, childScript } from "./build.js";
import { Child } from "./child.js";
import { type Expected, type Mismatch, fetchAll, runLoad } from "./load.js";
import { summarizeProfile } from "./profile.js";
import { summarizeHeapProfile } from "./heap-profile.js";
import { type RouteSection, runRouteSection } from "./routes.js";
import {
  type ServerName,
  type ServerRun,
  type SettingResult,
  type TargetCheck,
  formatBranches,
  formatTable,
  formatTargets,
} from "./report.js";
import type { WorkingSetEntry } from "./working-set.js";
import { buildWorkload } from "./workload.js";
import { gatewayOverrides, settingsFor } from "./settings.js";

// `npm run bench`: gateway vs. an upstream-equivalent baseline over a localnet,
// each in its own process, driven alternately by the load generator of load.ts in this process.

const RESULTS_DIR = fileURLToPath(new URL("./results/", import.meta.url));

const knobs = settingsFor("resolve");
/** BENCH_GATEWAY_BUILD: see bench/settings.ts. */
const gatewayBuild = knobs.gatewayBuild ? resolvePath(knobs.gatewayBuild) : undefined;

const options = {
  ...knobs,
  rounds: Math.max(1, knobs.rounds),
  out: knobs.out ?? `${RESULTS_DIR}latest.json`,
  /** Node flags of the gateway processes: those of `npm start` unless BENCH_GATEWAY_NODE_FLAGS says otherwise. */
  gatewayNodeFlags: knobs.gatewayNodeFlags ?? NPM_START.nodeFlags,
  /** Environment prefix of `npm start` (e.g. MALLOC_ARENA_MAX); the bench's own MALLOC_* variables take precedence. */
  gatewayStartEnv: startEnvFor(NPM_START, process.env),
  gatewayBuild,
  /** `npm run bench` without a section: the wallet and reverse routes section after the resolution cells. */
  routes: process.argv.includes("--with-routes") && !gatewayBuild,
};

interface Setting {
  readonly id: string;
  readonly latencyMs: number;
  readonly connections: number;
  readonly cache: boolean;
}

const ALL_SETTINGS: readonly Setting[] = [
  ...[0, 20, 100].flatMap((latencyMs) =>
    [1, 16, 64, 256, 1024].map((connections) => ({
      id: `${latencyMs}ms-c${connections}`,
      latencyMs,
      connections,
      cache: false,
    })),
  ),
  { id: "20ms-c64-cache", latencyMs: 20, connections: 64, cache: true },
];

/** The cache-on gateway is compared with the cache-less baseline of the same latency and concurrency. */
const baselineIdFor = (setting: Setting) => setting.id.replace(/-cache$/, "");

const settings = options.only ? ALL_SETTINGS.filter((s) => options.only!.includes(s.id)) : ALL_SETTINGS;
if (settings.length === 0) {
  console.error(`BENCH_ONLY matched no setting; known: ${ALL_SETTINGS.map((s) => s.id).join(", ")}`);
  process.exit(2);
}

const MB = 1024 * 1024;

/** Busy CPU time of the whole machine so far, in seconds, from /proc/stat (null off Linux). */
function machineCpu(): { busyS: number } | null {
  try {
    const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
    const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
    return { busyS: (total - idle) / 100 };
  } catch {
    return null;
  }
}

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
/** The run whose req/s is the median of its rounds (the lower middle for an even count). */
const medianRun = (runs: readonly ServerRun[]) =>
  [...runs].sort((a, b) => a.load.rps - b.load.rps)[(runs.length - 1) >> 1]!;

const HTTP_DURATION = "sns_gateway_http_request_duration_seconds";
const CACHE_LOOKUPS = "sns_gateway_resolve_cache_total";

interface GatewayCounters {
  readonly sumS: number;
  readonly count: number;
  /** Resolve cache lookups by result (hit, miss, refresh). */
  readonly cache: Record<string, number>;
}

/**
 * Totals of the gateway's request-duration histogram over every route and
 * status, and its resolve cache counters (undefined without /metrics).
 */
async function gatewayCounters(url: string): Promise<GatewayCounters | undefined> {
  const response = await fetch(`${url}/metrics`).catch(() => undefined);
  if (!response?.ok) return undefined;
  let sumS = 0;
  let count = 0;
  const cache: Record<string, number> = {};
  for (const line of (await response.text()).split("\n")) {
    const value = Number(line.slice(line.lastIndexOf(" ") + 1));
    if (line.startsWith(`${HTTP_DURATION}_sum`)) sumS += value;
    else if (line.startsWith(`${HTTP_DURATION}_count`)) count += value;
    else if (line.startsWith(`${CACHE_LOOKUPS}{`)) cache[/result="(\w+)"/.exec(line)?.[1] ?? "?"] = value;
  }
  return { sumS, count, cache };
}

/** Hit share and refreshes per 1,000 answers, when the response cache was looked up during the window. */
function cacheUse(before: GatewayCounters, after: GatewayCounters, answers: number): ServerRun["cache"] {
  const delta = (result: string) => (after.cache[result] ?? 0) - (before.cache[result] ?? 0);
  const lookups = delta("hit") + delta("miss");
  if (lookups === 0) return undefined;
  return {
    hitPercent: round((delta("hit") * 100) / lookups, 1),
    refreshPer1k: round((delta("refresh") * 1000) / answers, 1),
  };
}

/** Median time of one JSON-RPC exchange with the localnet at its current latency: the floor of a resolve. */
async function measureRtt(url: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 15; i++) {
    const started = performance.now();
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: i, method: "getSlot", params: [] }),
    });
    await response.text();
    times.push(performance.now() - started);
  }
  return median(times);
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (message: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);

interface LocalnetStats {
  readonly httpRequests: number;
  readonly calls: number;
  readonly methods: Record<string, number>;
}

const SDK_ERROR_STATUS: Record<string, number> = {
  DomainDoesNotExist: 404,
  RecordMalformed: 422,
  WrongValidation: 422,
  InvalidRoA: 422,
};

/** Whether an HTTP answer is what the SDK outcome maps to in upstream's proxy (bench/baseline/app.ts). */
function matchesSdk(answer: Expected, sdk: SdkOutcome): boolean {
  if (sdk.kind === "key") return answer.status === 200 && answer.body === JSON.stringify({ s: "ok", result: sdk.key });
  return answer.status === (SDK_ERROR_STATUS[sdk.error] ?? 500);
}

async function main(): Promise<void> {
  const startedAt = Date.now();
  const loadBefore = loadavg();
  if (loadBefore[0]! > cpus().length * 0.5) {
    log(
      `warning: load average ${loadBefore.map((l) => l.toFixed(2)).join(" ")} before start; other work on this machine will skew the numbers`,
    );
  }
  log(`compiling server children (tsc) ...`);
  const build = buildChildren();
  if (build.diagnostics)
    log(`tsc reported (JavaScript was emitted anyway):\n${build.diagnostics.split("\n").slice(0, 10).join("\n")}`);
  log(`compiled in ${build.ms} ms`);

  const profileDir = `${RESULTS_DIR}profiles/${new Date().toISOString().replace(/[:.]/g, "-")}`;
  if (options.profile !== "0") mkdirSync(profileDir, { recursive: true });
  const baseEnv = { PATH: process.env.PATH, NODE_ENV: "production" };

  const localnet = await Child.start("localnet", childScript("children/localnet"), {
    env: { ...baseEnv, BENCH_SEED: String(options.seed), BENCH_NAMES: String(options.names) },
  });
  const children: Child[] = [localnet];
  const stopAll = () => Promise.all(children.map((child) => child.stop()));
  process.once("SIGINT", () => void stopAll().then(() => process.exit(130)));

  try {
    const { entries, accounts, buildMs } = localnet.info as {
      entries: WorkingSetEntry[];
      accounts: number;
      buildMs: number;
    };
    log(`localnet ${localnet.url}: ${entries.length} names, ${accounts} accounts (built in ${buildMs} ms)`);
    const workload = buildWorkload(entries, createRng(options.seed + 1).next, {
      length: 1 << 18,
      exponent: options.zipfExponent,
      solShare: options.solShare,
    });
    log(
      `workload: ${workload.paths.length} distinct paths, top-10 names take ${round(workload.top10Share * 100)}% of requests`,
    );
    log(
      `request share by branch: ${Object.entries(workload.branchShare)
        .sort((a, b) => b[1] - a[1])
        .map(([branch, share]) => `${branch} ${round(share * 100)}%`)
        .join(", ")}`,
    );

    const gatewayEnv = (cacheTtlMs: number) => {
      const env: Record<string, string | undefined> = {
        ...baseEnv,
        ...options.gatewayStartEnv,
        RPC_URL: localnet.url,
        PORT: "0",
        HOST: "127.0.0.1",
        LOG_LEVEL: "info",
        SHUTDOWN_GRACE_MS: "1000",
        ...gatewayOverrides(),
        RESOLVE_CACHE_TTL_MS: String(cacheTtlMs),
      };
      return env;
    };
    const startServer = async (name: ServerName): Promise<Child> => {
      const child =
        name === "baseline"
          ? await Child.start(name, childScript("children/baseline"), {
              env: {
                ...baseEnv,
                RPC_URL: localnet.url,
                BASELINE_SHARED_AGENT: options.baselineSharedAgent ? "1" : "0",
              },
            })
          : await Child.start(name, childScript(options.gatewayBuild ? "children/gateway-build" : "children/gateway"), {
              env: { ...gatewayEnv(name === "gateway-cache" ? 2000 : 0), BENCH_GATEWAY_BUILD: options.gatewayBuild },
              execArgv: options.gatewayNodeFlags,
              ...(options.gatewayLogDir ? { stdoutPath: `${options.gatewayLogDir}/${name}.log` } : {}),
            });
      children.push(child);
      log(`${name} ${child.url} (pid ${child.pid})`);
      return child;
    };

    const needsPlain = settings.some((s) => !s.cache);
    const needsCache = settings.some((s) => s.cache);
    const gateway = needsPlain ? await startServer("gateway") : undefined;
    const baseline = await startServer("baseline");
    const gatewayCache = needsCache ? await startServer("gateway-cache") : undefined;

    // Correctness pre-pass: every distinct path once through both servers, at 0 ms latency.
    log(`pre-pass: ${workload.paths.length} paths through both servers ...`);
    await localnet.call("latency", 0);
    const reference = gateway ?? gatewayCache!;
    const [baselineAnswers, gatewayAnswers] = await Promise.all([
      fetchAll(baseline.url, workload.paths, 16),
      fetchAll(reference.url, workload.paths, 16),
    ]);
    const expectedBaseline = new Map<string, Expected>();
    const expectedGateway = new Map<string, Expected>();
    const deliberate: { path: string; branch: string }[] = [];
    const prepassMismatches: Mismatch[] = [];
    const baselineVsSdk: { path: string; branch: string; baseline: Expected; sdk: SdkOutcome }[] = [];
    const byBranch: Record<string, Record<string, number>> = {};
    workload.paths.forEach((path, i) => {
      const base = baselineAnswers[i]!;
      const gw = gatewayAnswers[i]!;
      const entry = workload.entryOf.get(path);
      const branch = entry?.branch ?? "?";
      if (entry?.sdk && !matchesSdk(base, entry.sdk))
        baselineVsSdk.push({ path, branch, baseline: base, sdk: entry.sdk });
      const counts = (byBranch[branch] ??= {});
      counts[base.status] = (counts[base.status] ?? 0) + 1;
      expectedBaseline.set(path, base);
      if (gw.status === base.status && gw.body === base.body) {
        expectedGateway.set(path, base);
      } else if (
        entry?.undecodable &&
        gw.status === 422 &&
        gw.body === JSON.stringify({ s: "error", result: "Record is malformed" }) &&
        base.status === 500 &&
        base.body === JSON.stringify({ s: "error", result: "Internal error" })
      ) {
        // Documented deliberate difference: undecodable data is the record's fault (422), not the server's.
        expectedGateway.set(path, gw);
        deliberate.push({ path, branch });
      } else {
        expectedGateway.set(path, base);
        prepassMismatches.push({ path, expected: base, got: gw });
      }
    });
    if (gateway && gatewayCache) {
      // The cached instance gets the same pre-pass: its answers are checked too, and its derivation
      // memos are as warm as the plain gateway's. Its response cache then expires before measuring.
      const cachedAnswers = await fetchAll(gatewayCache.url, workload.paths, 16);
      workload.paths.forEach((path, i) => {
        const plain = gatewayAnswers[i]!;
        const cached = cachedAnswers[i]!;
        if (cached.status !== plain.status || cached.body !== plain.body)
          prepassMismatches.push({ path, expected: plain, got: cached });
      });
      await new Promise((resolve) => setTimeout(resolve, 2_100));
    }
    const deliberateBranches = [...new Set(deliberate.map((d) => d.branch))];
    log(
      `pre-pass: ${workload.paths.length - deliberate.length - prepassMismatches.length} identical, ` +
        `${deliberate.length} deliberate 422-vs-500 (${deliberateBranches.join(", ") || "none"}), ` +
        `${prepassMismatches.length} MISMATCHES`,
    );
    log(
      `baseline vs chain-gen's SDK expectations: ${workload.paths.length - baselineVsSdk.length} agree, ${baselineVsSdk.length} differ` +
        (baselineVsSdk.length
          ? ` (e.g. ${baselineVsSdk
              .slice(0, 3)
              .map((d) => `${d.branch} ${d.path} ${d.baseline.status}`)
              .join("; ")})`
          : ""),
    );
    for (const m of prepassMismatches.slice(0, 10)) {
      log(`  ${m.path}: baseline ${m.expected?.status} ${m.expected?.body} / gateway ${m.got.status} ${m.got.body}`);
    }

    const quiesce = async (latencyMs: number) => {
      // Wait until the servers stop sending RPCs (abandoned requests finish after the load stops).
      let last = -1;
      for (let i = 0; i < 50; i++) {
        const { httpRequests } = await localnet.call<LocalnetStats>("stats");
        if (httpRequests === last) return;
        last = httpRequests;
        await sleep(Math.max(100, 3 * latencyMs));
      }
    };

    const measure = async (name: ServerName, server: Child, setting: Setting, index: number): Promise<ServerRun> => {
      const expected = name === "baseline" ? expectedBaseline : expectedGateway;
      // Same window of the sequence for both servers of a setting.
      const start = (index * 40_009) % workload.sequence.length;
      const common = {
        url: server.url,
        connections: setting.connections,
        sequence: workload.sequence,
        expected,
        branchOf: workload.branchOf,
      };
      if (options.warmupS > 0) await runLoad({ ...common, durationS: options.warmupS, start });
      await quiesce(setting.latencyMs);
      await localnet.call("reset");
      const profiled = options.profile === "all" || (options.profile === "1" && name !== "baseline");
      const survivors = options.profile === "survivors" && name !== "baseline";
      if (profiled) await server.call("profileStart");
      if (survivors) await server.call("survivorsStart");
      const inApp = name === "baseline" ? undefined : await gatewayCounters(server.url);
      const [s0, l0] = await Promise.all([server.usage(), localnet.usage()]);
      const p0 = process.cpuUsage();
      const m0 = machineCpu();
      const load = await runLoad({ ...common, durationS: options.durationS, start: start + 20_000 });
      // Read right away: requests abandoned at the end must not add RPCs or CPU to the answered ones.
      const [s1, l1, stats] = await Promise.all([
        server.usage(),
        localnet.usage(),
        localnet.call<LocalnetStats>("stats"),
      ]);
      const p1 = process.cpuUsage(p0);
      const m1 = machineCpu();
      const inAppAfter = inApp && (await gatewayCounters(server.url));
      if (profiled) await server.call("profileStop", `${profileDir}/${name}-${setting.id}.cpuprofile`);
      if (survivors) {
        const file = `${profileDir}/${name}-${setting.id}-${index}.heapprofile`;
        await server.call("survivorsStop", file);
        console.log(`${file}: outliving a scavenge, ${summarizeHeapProfile(file, load.responses)}\n`);
      }
      await quiesce(setting.latencyMs);
      const after = await server.usage();
      const n = Math.max(1, load.responses);
      const run: ServerRun = {
        server: name,
        load,
        rpc: {
          httpRequests: stats.httpRequests,
          calls: stats.calls,
          methods: stats.methods,
          httpPer1k: round((stats.httpRequests * 1000) / n, 2),
          callsPer1k: round((stats.calls * 1000) / n, 2),
        },
        cpu: {
          serverUsPerResolve: round((s1.cpuUs - s0.cpuUs) / n),
          serverCores: round((s1.cpuUs - s0.cpuUs) / 1e6 / load.elapsedS, 3),
          localnetUsPerResolve: round((l1.cpuUs - l0.cpuUs) / n),
          localnetCores: round((l1.cpuUs - l0.cpuUs) / 1e6 / load.elapsedS, 3),
          loadgenCores: round((p1.user + p1.system) / 1e6 / load.elapsedS, 3),
          otherCores:
            m0 && m1
              ? round(
                  (m1.busyS - m0.busyS - (s1.cpuUs - s0.cpuUs + l1.cpuUs - l0.cpuUs + p1.user + p1.system) / 1e6) /
                    load.elapsedS,
                  2,
                )
              : null,
          loopDelayMs: s1.loopDelay,
          localnetLoopDelayMs: l1.loopDelay,
        },
        ...(inApp && inAppAfter && inAppAfter.count > inApp.count
          ? { inAppMeanMs: round(((inAppAfter.sumS - inApp.sumS) * 1000) / (inAppAfter.count - inApp.count), 2) }
          : {}),
        ...(inApp && inAppAfter && { cache: cacheUse(inApp, inAppAfter, n) }),
        memory: {
          rssAfterMB: round(after.rssBytes / MB),
          peakRssMB: round(after.maxRssBytes / MB),
          heapTotalMB: round(s1.heap.total / MB),
          heapUsedMB: round(s1.heap.used / MB),
          externalMB: round(s1.heap.external / MB),
        },
      };
      log(
        `${setting.id.padEnd(15)} ${name.padEnd(13)} ${round(load.rps, 0)} req/s  p50 ${round(load.p50Ms)} ms  ` +
          `p99 ${round(load.p99Ms)} ms  RPC/1k ${run.rpc.httpPer1k}  CPU ${run.cpu.serverUsPerResolve} µs/res ` +
          `(${run.cpu.serverCores} cores, loop delay p99 ${s1.loopDelay.p99} ms; localnet ${l1.loopDelay.p99} ms; ` +
          `other load ${run.cpu.otherCores ?? "n/a"} cores)  ` +
          `RSS ${run.memory.rssAfterMB} MB  mismatches ${load.mismatches}` +
          (run.cache ? `  cache hits ${run.cache.hitPercent}%, refreshes ${run.cache.refreshPer1k}/1k` : ""),
      );
      for (const m of load.mismatchExamples.slice(0, 3)) {
        log(`    ${m.path}: expected ${m.expected?.status} ${m.expected?.body} got ${m.got.status} ${m.got.body}`);
      }
      return run;
    };

    // The one-round-trip bound: at concurrency c no server can answer more than c / RTT requests a second.
    const rttByLatency = new Map<number, number>();
    for (const latencyMs of new Set(settings.map((setting) => setting.latencyMs))) {
      if (latencyMs === 0) continue;
      await localnet.call("latency", latencyMs);
      rttByLatency.set(latencyMs, round(await measureRtt(localnet.url), 2));
      log(`RPC round trip at ${latencyMs} ms latency: ${rttByLatency.get(latencyMs)} ms`);
    }

    const roundsOf = new Map<string, { gateway: ServerRun[]; baseline: ServerRun[] }>();
    for (let roundIndex = 0; roundIndex < options.rounds; roundIndex++) {
      log(`round ${roundIndex + 1} of ${options.rounds}`);
      for (const [index, setting] of settings.entries()) {
        await localnet.call("latency", setting.latencyMs);
        const gw: [ServerName, Child] = setting.cache ? ["gateway-cache", gatewayCache!] : ["gateway", gateway!];
        const reuse = setting.cache ? roundsOf.get(baselineIdFor(setting))?.baseline[roundIndex] : undefined;
        const order: [ServerName, Child][] = reuse
          ? [gw]
          : (index + roundIndex) % 2 === 0
            ? [gw, ["baseline", baseline]]
            : [["baseline", baseline], gw];
        const entry = roundsOf.get(setting.id) ?? { gateway: [], baseline: [] };
        roundsOf.set(setting.id, entry);
        for (const [name, child] of order) {
          const run = await measure(name, child, setting, index * options.rounds + roundIndex);
          (name === "baseline" ? entry.baseline : entry.gateway).push(run);
        }
        if (reuse) entry.baseline.push(reuse);
      }
    }

    const results: SettingResult[] = settings.map((setting) => {
      const { gateway: gwRuns, baseline: baseRuns } = roundsOf.get(setting.id)!;
      const ratios = gwRuns.map((run, i) => run.load.rps / baseRuns[i]!.load.rps);
      const gwRun = medianRun(gwRuns);
      const baseRun = medianRun(baseRuns);
      const rttMs = rttByLatency.get(setting.latencyMs);
      const boundRps = rttMs ? (setting.connections * 1000) / rttMs : undefined;
      const gwRps = median(gwRuns.map((run) => run.load.rps));
      return {
        id: setting.id,
        latencyMs: setting.latencyMs,
        connections: setting.connections,
        cache: setting.cache,
        runs: [gwRun, baseRun],
        rounds: {
          gatewayRps: gwRuns.map((r) => round(r.load.rps, 0)),
          baselineRps: baseRuns.map((r) => round(r.load.rps, 0)),
        },
        ratio: {
          rps: round(median(ratios), 2),
          rpsMin: round(Math.min(...ratios), 2),
          rpsMax: round(Math.max(...ratios), 2),
          p99: round(gwRun.load.p99Ms / baseRun.load.p99Ms, 3),
          rpcPer1k: round(gwRun.rpc.httpPer1k / baseRun.rpc.httpPer1k, 4),
          cpuPerResolve: round(gwRun.cpu.serverUsPerResolve / baseRun.cpu.serverUsPerResolve, 3),
        },
        ...(boundRps && rttMs
          ? { bound: { rttMs, rps: round(boundRps, 0), fraction: round(gwRps / boundRps, 3) } }
          : {}),
      };
    });

    const memory: Record<string, { rssAfterMB: number[]; peakRssMB: number }> = {};
    for (const setting of results) {
      for (const run of setting.runs) {
        if (run.server === "baseline" && setting.cache) continue;
        const entry = (memory[run.server] ??= { rssAfterMB: [], peakRssMB: 0 });
        entry.rssAfterMB.push(run.memory.rssAfterMB);
        entry.peakRssMB = Math.max(entry.peakRssMB, run.memory.peakRssMB);
      }
    }

    const find = (id: string) => results.find((r) => r.id === id);
    const checks: TargetCheck[] = [];
    const check = (
      target: string,
      setting: SettingResult | undefined,
      value: (s: SettingResult) => [string, boolean],
    ) => {
      if (!setting) return checks.push({ target, value: "not run", pass: null });
      const [text, pass] = value(setting);
      checks.push({ target, value: text, pass });
    };
    const gwOf = (s: SettingResult) => s.runs.find((r) => r.server !== "baseline")!;
    const spread = (s: SettingResult) => `x${s.ratio!.rps} (rounds x${s.ratio!.rpsMin}–x${s.ratio!.rpsMax})`;
    check("20 ms, c=64, cache off: throughput >= 5x baseline", find("20ms-c64"), (s) => [spread(s), s.ratio!.rps >= 5]);
    check("20 ms, c=64, cache off: >= 0.85 of the one-round-trip bound c/RTT", find("20ms-c64"), (s) => [
      s.bound ? `${s.bound.fraction} of ${s.bound.rps} req/s (RTT ${s.bound.rttMs} ms)` : "n/a",
      (s.bound?.fraction ?? 0) >= 0.85,
    ]);
    check("20 ms, c=64, cache off: <= 100 RPC HTTP requests / 1,000 resolves", find("20ms-c64"), (s) => [
      `${gwOf(s).rpc.httpPer1k}`,
      gwOf(s).rpc.httpPer1k <= 100,
    ]);
    check("20 ms, c=64, cache off: p99 <= 60 ms", find("20ms-c64"), (s) => [
      `${round(gwOf(s).load.p99Ms)} ms`,
      gwOf(s).load.p99Ms <= 60,
    ]);
    check("0 ms, c=64, cache off: throughput >= 30x baseline", find("0ms-c64"), (s) => [spread(s), s.ratio!.rps >= 30]);
    check("cache on (TTL 2,000 ms), 20 ms, c=64: throughput >= 20x baseline", find("20ms-c64-cache"), (s) => [
      `${spread(s)}, ${round(gwOf(s).load.rps, 0)} req/s`,
      s.ratio!.rps >= 20,
    ]);
    for (const name of ["gateway", "gateway-cache"] as const) {
      const entry = memory[name];
      if (entry) {
        checks.push({
          target: `${name} peak RSS <= 150 MB`,
          value: `${entry.peakRssMB} MB (RSS after each setting: ${entry.rssAfterMB.join(", ")})`,
          pass: entry.peakRssMB <= 150,
        });
      }
    }
    const loadMismatches = results
      .flatMap((s) => s.runs.filter((r) => r.server !== "baseline"))
      .reduce((sum, r) => sum + r.load.mismatches, 0);
    checks.push({
      target: "gateway answers equal the baseline's (pre-pass and under load)",
      value: `${prepassMismatches.length} pre-pass mismatches, ${loadMismatches} under load, ${deliberate.length} deliberate 422-vs-500 paths`,
      pass: prepassMismatches.length === 0 && loadMismatches === 0,
    });

    console.log(`\n${formatTable(results)}\n`);
    console.log(
      "RPC/1k: RPC HTTP requests per 1,000 answered requests (a JSON-RPC batch counts once); calls/1k counts every call.\n" +
        "CPU µs/res: server process user+system CPU per answered request; cores: that CPU per wall-clock second.\n" +
        "RSS MB: after the setting's load drained; peak MB: process peak so far. Ratios are gateway/baseline.\n" +
        "other: busy cores of foreign processes during the window (this machine has " +
        `${cpus().length}); above ~0.3 the latency tails are not the servers' alone.\n`,
    );
    const focus = find("20ms-c64");
    if (focus) console.log(`${formatBranches(focus)}\n`);
    console.log(`${formatTargets(checks)}\n`);

    await stopAll();
    let profiles: { file: string; summary: string }[] = [];
    if (options.profile !== "0") {
      profiles = readdirSync(profileDir)
        .filter((file) => file.endsWith(".cpuprofile"))
        .map((file) => ({ file: `${profileDir}/${file}`, summary: summarizeProfile(`${profileDir}/${file}`, 25) }));
      for (const p of profiles) console.log(`${p.file}\n${p.summary}\n`);
    }

    // Section 2: the wallet and reverse routes vs the SDK functions, once the resolution servers are stopped.
    let routes: RouteSection | undefined;
    if (options.routes) {
      log("routes: wallet, reverse and transaction routes vs the SDK functions (demo ledger, 20 ms, c16)");
      routes = await runRouteSection();
      console.log(`\n${routes.table}\n`);
    }

    mkdirSync(RESULTS_DIR, { recursive: true });
    const report = {
      generatedAt: new Date().toISOString(),
      wallClockS: round((Date.now() - startedAt) / 1000),
      machine: {
        node: process.version,
        cpus: cpus().length,
        cpuModel: cpus()[0]?.model,
        loadAverageBefore: loadBefore,
        loadAverageAfter: loadavg(),
      },
      options: { ...options, gatewayOverrides: gatewayOverrides() },
      workingSet: {
        names: entries.length,
        accounts,
        distinctPaths: workload.paths.length,
        top10Share: round(workload.top10Share, 3),
        requestShareByBranch: Object.fromEntries(
          Object.entries(workload.branchShare).map(([b, v]) => [b, round(v, 4)]),
        ),
        baselineStatusByBranch: byBranch,
      },
      prepass: { deliberate, mismatches: prepassMismatches, baselineVsSdk },
      settings: results,
      memory,
      targets: checks,
      profiles: profiles.map((p) => p.file),
      ...(routes && { routes: { rows: routes.rows, ratios: routes.ratios } }),
    };
    writeFileSync(options.out, `${JSON.stringify(report, null, 2)}\n`);
    log(`wrote ${options.out} (${round((Date.now() - startedAt) / 1000)} s in all)`);
    if (checks.some((c) => c.pass === false && c.target.startsWith("gateway answers"))) process.exitCode = 1;
  } catch (error) {
    await stopAll();
    throw error;
  }
}

await main();
