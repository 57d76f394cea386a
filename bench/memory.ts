import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { NPM_START, startEnvFor } from "../testkit/npm-start.js";
import { createRng } from "../testkit/rng.js";
import { buildChildren, childScript } from "./build.js";
import { Child } from "./child.js";
import { type Expected, fetchAll, runLoad } from "./load.js";
import type { MemorySample } from "./memory-sample.js";
import type { Usage } from "./ipc.js";
import type { WorkingSetEntry } from "./working-set.js";
import { buildWorkload } from "./workload.js";
import { settingsFor } from "./settings.js";

// `npm run bench -- memory`: where the gateway's resident memory is, phase by phase
// (started, warmed, under load at c16/c64/c1024, drained), with CPU per answer.
// The gateway is the bench's gateway child, started with `npm start`'s flags and environment prefix.

const knobs = settingsFor("memory");
const durationS = knobs.durationS;
const phases = knobs.phases.filter((c) => c > 0);
const nodeFlags = knobs.gatewayNodeFlags ?? NPM_START.nodeFlags;
const startEnv = startEnvFor(NPM_START, process.env);
const out = knobs.out ?? fileURLToPath(new URL("./results/memory.json", import.meta.url));

const MB = 1024 * 1024;
const mb = (bytes: number) => (bytes / MB).toFixed(1);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Row {
  readonly phase: string;
  readonly sample: MemorySample;
  readonly rps?: number;
  readonly cpuUsPerAnswer?: number;
  /** Per 1,000 answers: scavenges, their pause ms, other collections, their pause ms. */
  readonly gcPer1k?: {
    readonly minor: number;
    readonly minorMs: number;
    readonly major: number;
    readonly majorMs: number;
  };
}

function printRows(rows: readonly Row[]): void {
  const header = [
    "phase",
    "req/s",
    "CPU µs/ans",
    "GC ms (count) per 1k: scavenge / other",
    "RSS",
    "peak",
    "anon",
    "file",
    "V8 resident",
    "new space",
    "old space",
    "code",
    "large obj",
    "V8 used",
    "arrayBuffers",
    "arenas",
    "brk heap",
    "anon − V8",
    "threads",
  ];
  console.log(`| ${header.join(" | ")} |\n|${header.map(() => " --- |").join("")}`);
  for (const { phase, sample: s, rps, cpuUsPerAnswer, gcPer1k } of rows) {
    const space = (name: string) => mb(s.spaces[name]?.resident ?? 0);
    const cells = [
      phase,
      rps === undefined ? "" : Math.round(rps).toString(),
      cpuUsPerAnswer === undefined ? "" : Math.round(cpuUsPerAnswer).toString(),
      gcPer1k
        ? `${gcPer1k.minorMs.toFixed(1)} (${gcPer1k.minor.toFixed(1)}) / ${gcPer1k.majorMs.toFixed(1)} (${gcPer1k.major.toFixed(1)})`
        : "",
      mb(s.rss),
      mb(s.peakRss),
      mb(s.rssAnon),
      mb(s.rssFile),
      mb(s.v8Resident),
      space("new_space"),
      space("old_space"),
      space("code_space"),
      space("large_object_space"),
      mb(s.v8Used),
      mb(s.arrayBuffers),
      mb(s.threadArenas),
      mb(s.brkHeap),
      mb(s.rssAnon - s.v8Resident),
      String(s.threads),
    ];
    console.log(`| ${cells.join(" | ")} |`);
  }
}

async function main(): Promise<void> {
  const build = buildChildren();
  if (build.diagnostics) console.log(`tsc: ${build.diagnostics.split("\n").slice(0, 5).join("\n")}`);
  const baseEnv = { PATH: process.env.PATH, NODE_ENV: "production" };
  const localnet = await Child.start("localnet", childScript("children/localnet"), {
    env: { ...baseEnv, BENCH_NAMES: String(knobs.names) },
  });
  const gateway = await Child.start("gateway", childScript("children/gateway"), {
    env: {
      ...baseEnv,
      ...startEnv,
      RPC_URL: localnet.url,
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      SHUTDOWN_GRACE_MS: "1000",
    },
    execArgv: nodeFlags,
  });
  console.log(
    `gateway: node ${nodeFlags.join(" ")}${Object.keys(startEnv).length ? `, ${JSON.stringify(startEnv)}` : ""}`,
  );
  const rows: Row[] = [];
  const sample = (phase: string, extra: Partial<Row> = {}) =>
    gateway.call<MemorySample>("memory").then((s) => {
      rows.push({ phase, sample: s, ...extra });
      return s;
    });
  /** Samples every 100 ms while `work` runs; the sample with the highest RSS is where the peak went. */
  const highest = async <T>(work: Promise<T>): Promise<[T, MemorySample]> => {
    let done = false;
    let top: MemorySample | undefined;
    const watching = (async () => {
      while (!done) {
        const s = await gateway.call<MemorySample>("memory");
        if (!top || s.rss > top.rss) top = s;
        await sleep(100);
      }
    })();
    const result = await work.finally(() => (done = true));
    await watching;
    return [result, top!];
  };
  try {
    await sleep(1000);
    await sample("started");
    const { entries } = localnet.info as { entries: WorkingSetEntry[] };
    const workload = buildWorkload(entries, createRng(2).next, { length: 1 << 18, exponent: 1, solShare: 0.35 });
    const [answers, prePassTop] = await highest(fetchAll(gateway.url, workload.paths, 16));
    rows.push({ phase: "pre-pass, highest RSS sampled", sample: prePassTop });
    const expected = new Map<string, Expected>(workload.paths.map((path, i) => [path, answers[i]!]));
    await sample("pre-pass (every path once, c16) done");
    for (const [index, connections] of phases.entries()) {
      const common = {
        url: gateway.url,
        connections,
        sequence: workload.sequence,
        expected,
        branchOf: workload.branchOf,
      };
      await runLoad({ ...common, durationS: 1, start: index * 40_009 });
      const before = await gateway.usage();
      // What is resident while every connection has a request in flight, at its highest.
      const [load, during] = await highest(runLoad({ ...common, durationS, start: index * 40_009 + 20_000 }));
      const after: Usage = await gateway.usage();
      const answers = Math.max(1, load.responses);
      const cpuUsPerAnswer = (after.cpuUs - before.cpuUs) / answers;
      const per1k = (key: keyof Usage["gc"]) => ((after.gc[key] - before.gc[key]) * 1000) / answers;
      const gcPer1k = {
        minor: per1k("minor"),
        minorMs: per1k("minorMs"),
        major: per1k("major"),
        majorMs: per1k("majorMs"),
      };
      rows.push({
        phase: `c${connections}, under load, highest RSS sampled`,
        sample: during,
        rps: load.rps,
        cpuUsPerAnswer,
        gcPer1k,
      });
      if (load.mismatches) console.log(`c${connections}: ${load.mismatches} answers differ from the pre-pass`);
      await sleep(1000);
      await sample(`c${connections}, drained 1 s`);
    }
    printRows(rows);
    writeFileSync(out, `${JSON.stringify({ nodeFlags, startEnv, durationS, rows }, null, 2)}\n`);
    console.log(`written: ${out}`);
  } finally {
    await gateway.stop();
    await localnet.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
