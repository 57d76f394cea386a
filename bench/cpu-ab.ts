import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { DEMO_FIXTURE_PATH, loadFixtureFile, startLocalnet } from "../src/localnet/index.js";
import { NPM_START, startEnvFor } from "../testkit/npm-start.js";
import { createRng } from "../testkit/rng.js";
import { buildChildren, childScript } from "./build.js";
import { Child } from "./child.js";
import { fetchAll, runLoad } from "./load.js";
import type { WorkingSetEntry } from "./working-set.js";
import { buildWorkload } from "./workload.js";
import { type OtlpSink, startOtlpSink } from "./otlp-sink.js";
import { gatewayOverrides, settingsFor } from "./settings.js";

/**
 * `npm run bench -- ab <dir> [<dir> …]`: gateway CPU per answer and req/s of
 * several builds of this project (each dir holds a built `dist/`, e.g. a git
 * worktree of an older commit after `npm ci && npm run build`), measured in
 * alternation so that the machine's slow and fast phases fall on every side;
 * the order of the builds flips every round. Each round starts each build
 * fresh with the node flags and environment prefix of this build's `npm start`
 * (testkit/npm-start.ts), checks its answers, warms it up, then reads its process CPU
 * (/proc, user + system) across a load window of `BENCH_CONNECTIONS` (64)
 * connections. A dir may carry extra node flags after a `|`, given after those
 * (a later flag wins): `.|--v8-pool-size=4`, `../old|--max-old-space-size=96`;
 * words there of the form `NAME=value` are environment variables of that
 * build's gateway instead, where `{otlp}` stands for the URL of an OTLP/HTTP
 * receiver this process starts (bench/otlp-sink.ts): `. '.|OTEL_EXPORTER_OTLP_ENDPOINT={otlp}'`
 * measures one build with tracing off and on.
 *
 * The workload (`BENCH_WORKLOAD`):
 * - `demo` (default): eight demo names round robin, localnet in this process.
 * - `bench`: the working set and Zipf request order of `npm run bench`
 *   (BENCH_SEED, BENCH_NAMES, BENCH_ZIPF_S, BENCH_SOL_SHARE), its localnet in a
 *   process of its own.
 * `BENCH_LATENCY_MS` (0) delays every RPC answer. Gateway settings are passed on
 * from this process's environment (bench/settings.ts, gatewayOverrides):
 * `RESOLVE_CACHE_TTL_MS=60000` makes every measured answer
 * a cache hit; without it every request resolves. With a TTL, each build's
 * answers checked at start expire before its windows.
 */

const knobs = settingsFor("ab");
const { rounds, connections, latencyMs } = knobs;
const seconds = knobs.durationS;
const workloadKind = knobs.workload;
const builds = process.argv.slice(2);
if (builds.length === 0) {
  console.error(
    "usage: [BENCH_WORKLOAD=demo|bench] npm run bench -- ab <dir> [<dir> …]   (a dir may end in |<node flags>)",
  );
  process.exit(2);
}

const CLOCK_TICKS_PER_S = 100;
const settings = gatewayOverrides();
const cacheTtlMs = Number(settings.RESOLVE_CACHE_TTL_MS ?? 0);
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** What the builds are measured against: an RPC node and the request order. */
interface Ledger {
  readonly rpcUrl: string;
  /** Every distinct path, checked once per build before its windows. */
  readonly paths: readonly string[];
  readonly sequence: readonly string[];
  readonly branchOf: ReadonlyMap<string, string>;
  setLatency(ms: number): Promise<void>;
  close(): Promise<void>;
}

async function demoLedger(): Promise<Ledger> {
  const localnet = await startLocalnet({ ledger: await loadFixtureFile(DEMO_FIXTURE_PATH) });
  const names = [
    "bonfida.sns",
    "v2-sol.sns",
    "stale-v2.sns",
    "v1-sol.sns",
    "missing-name.sns",
    "plain.sol",
    "dex.bonfida.sns",
    "a.b.c.sns",
  ];
  const paths = names.map((name) => `/resolve/${name}`);
  return {
    rpcUrl: localnet.url,
    paths,
    sequence: paths,
    branchOf: new Map(),
    setLatency: async (ms) => localnet.setLatency(ms),
    close: () => localnet.close(),
  };
}

async function benchLedger(): Promise<Ledger> {
  const { seed } = knobs;
  buildChildren();
  const localnet = await Child.start("localnet", childScript("children/localnet"), {
    env: { PATH: process.env.PATH, NODE_ENV: "production", BENCH_SEED: String(seed), BENCH_NAMES: String(knobs.names) },
  });
  const { entries } = localnet.info as { entries: WorkingSetEntry[] };
  const workload = buildWorkload(entries, createRng(seed + 1).next, {
    length: 1 << 18,
    exponent: knobs.zipfExponent,
    solShare: knobs.solShare,
  });
  return {
    rpcUrl: localnet.url,
    paths: workload.paths,
    sequence: workload.sequence,
    branchOf: workload.branchOf,
    setLatency: (ms) => localnet.call("latency", ms),
    close: () => localnet.stop(),
  };
}

/** User + system CPU of a process so far, in µs (fields 14 and 15 of /proc/<pid>/stat). */
function cpuUsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS_PER_S;
}

/** A build's entry: where `npm start` runs it now, or where older builds had it. */
function entryOf(dir: string): string {
  const candidates = [...new Set([NPM_START.entry, "dist/platform/node.js", "dist/node.js"])];
  const entry = candidates.map((path) => resolve(dir, path)).find((path) => existsSync(path));
  if (!entry) throw new Error(`${dir}: none of ${candidates.join(", ")} (run npm run build there)`);
  return entry;
}

/** A build's extra words: node flags, and `NAME=value` environment variables (`{otlp}`: the sink's URL). */
function extrasOf(
  extra: string | undefined,
  sink: OtlpSink | undefined,
): { flags: string[]; env: Record<string, string> } {
  const words = extra ? extra.trim().split(/\s+/) : [];
  const assignment = /^([A-Z][A-Z0-9_]*)=(.*)$/;
  const env: Record<string, string> = {};
  for (const word of words) {
    const match = assignment.exec(word);
    if (match) env[match[1]!] = match[2]!.replaceAll("{otlp}", sink?.url ?? "{otlp}");
  }
  return { flags: words.filter((word) => !assignment.test(word)), env };
}

interface Window {
  readonly usPerAnswer: number;
  readonly rps: number;
  readonly answers: number;
  readonly mismatches: number;
  /** Spans the OTLP sink received while the build ran. */
  readonly spans: number;
}

async function measure(build: string, ledger: Ledger, offset: number): Promise<Window> {
  const [dir, extra] = build.split("|");
  const entry = entryOf(dir!);
  const extras = extrasOf(extra, sink);
  const spansBefore = sink?.spans ?? 0;
  const child = spawn(process.execPath, [...NPM_START.nodeFlags, ...extras.flags, entry], {
    env: {
      ...startEnvFor(NPM_START, process.env),
      ...settings,
      ...extras.env,
      PATH: process.env.PATH,
      PORT: "0",
      HOST: "127.0.0.1",
      RPC_URL: ledger.rpcUrl,
      LOG_LEVEL: "info",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    let output = "";
    const url = await new Promise<string>((found, failed) => {
      child.once("exit", (code) => failed(new Error(`${dir}: gateway exited (${code}) before listening`)));
      child.stdout!.on("data", (chunk: Buffer) => {
        output += chunk;
        const listening = /"url":"(http:[^"]+)"/.exec(output);
        if (listening) found(listening[1]!);
      });
    });
    child.stdout!.removeAllListeners("data");
    child.stdout!.resume();
    await ledger.setLatency(0);
    const answers = await fetchAll(url, ledger.paths, 16);
    if (cacheTtlMs > 0) await sleep(cacheTtlMs);
    await ledger.setLatency(latencyMs);
    const expected = new Map(ledger.paths.map((path, i) => [path, answers[i]!]));
    const load = { url, connections, sequence: ledger.sequence, expected, branchOf: ledger.branchOf };
    await runLoad({ ...load, start: offset, durationS: 1.5 });
    const before = cpuUsOf(child.pid!);
    const result = await runLoad({ ...load, start: offset + 20_000, durationS: seconds });
    const used = cpuUsOf(child.pid!) - before;
    return {
      usPerAnswer: used / Math.max(1, result.responses),
      rps: result.rps,
      answers: result.responses,
      mismatches: result.mismatches,
      get spans() {
        return (sink?.spans ?? 0) - spansBefore;
      },
    };
  } finally {
    child.kill("SIGTERM");
    if (child.exitCode === null) await new Promise((exited) => child.once("exit", exited));
  }
}

const spread = (values: readonly number[], digits: number): string => {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return `${median.toFixed(digits)} (${sorted[0]!.toFixed(digits)}–${sorted.at(-1)!.toFixed(digits)})`;
};

const ledger = workloadKind === "bench" ? await benchLedger() : await demoLedger();
const sink = builds.some((build) => build.includes("{otlp}")) ? await startOtlpSink() : undefined;
console.log(
  `workload ${workloadKind} (${ledger.paths.length} paths), RPC latency ${latencyMs} ms, c${connections}; gateway settings: ` +
    (Object.entries(settings)
      .map(([name, value]) => `${name}=${value}`)
      .join(" ") || "defaults"),
);
const results = new Map<string, Window[]>(builds.map((build) => [build, []]));
for (let round = 1; round <= rounds; round++) {
  // Both builds of a round are driven through the same window of the request order.
  const offset = (round * 40_009) % ledger.sequence.length;
  for (const build of round % 2 === 1 ? builds : [...builds].reverse()) {
    const window = await measure(build, ledger, offset);
    results.get(build)!.push(window);
    console.log(
      `round ${round}  ${build}: ${window.answers} answers, ${Math.round(window.rps)} req/s, ` +
        `${window.usPerAnswer.toFixed(1)} µs CPU per answer, ${window.mismatches} mismatches` +
        (sink ? `, ${window.spans} spans exported (SIGTERM flush included)` : ""),
    );
  }
}
const first = results.get(builds[0]!)!;
for (const [build, windows] of results) {
  console.log(
    `${build}: CPU per answer median ${spread(
      windows.map((w) => w.usPerAnswer),
      1,
    )} µs; ` +
      `req/s ${spread(
        windows.map((w) => w.rps),
        0,
      )}` +
      (build === builds[0]
        ? ""
        : `; req/s ÷ ${builds[0]} per round ${spread(
            windows.map((w, i) => w.rps / first[i]!.rps),
            2,
          )}`),
  );
}
await ledger.close();
await sink?.close();
process.exit(0);
