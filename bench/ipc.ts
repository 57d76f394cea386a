import { Session } from "node:inspector/promises";
import { writeFile } from "node:fs/promises";
import { writeHeapSnapshot } from "node:v8";
import { PerformanceObserver, constants as perfConstants, monitorEventLoopDelay } from "node:perf_hooks";
import { sampleMemory } from "./memory-sample.js";

/** Messages between the bench parent and its server children (Node IPC channel). */

export interface Usage {
  /** User + system CPU time of the whole process, in microseconds. */
  readonly cpuUs: number;
  readonly rssBytes: number;
  /** Peak resident set size over the process lifetime (getrusage ru_maxrss). */
  readonly maxRssBytes: number;
  /** V8 heap and off-heap memory at sampling time, in bytes: where the RSS goes. */
  readonly heap: {
    readonly total: number;
    readonly used: number;
    readonly external: number;
    readonly arrayBuffers: number;
  };
  /** Garbage collections so far: scavenges (young generation) and the rest (mark-compact, incremental), with their pause time. */
  readonly gc: { readonly minor: number; readonly minorMs: number; readonly major: number; readonly majorMs: number };
  /** Event-loop delay since the previous sample, in ms: how long ready work waited for the CPU. */
  readonly loopDelay: { readonly p50: number; readonly p99: number; readonly max: number };
}

export interface Ready {
  readonly kind: "ready";
  readonly url: string;
  readonly info?: unknown;
}

export interface Request {
  readonly kind: "request";
  readonly id: number;
  readonly op: string;
  readonly arg?: unknown;
}

export type Reply =
  | { readonly kind: "reply"; readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly kind: "reply"; readonly id: number; readonly ok: false; readonly error: string };

const loop = monitorEventLoopDelay({ resolution: 1 });
loop.enable();

const gc = { minor: 0, minorMs: 0, major: 0, majorMs: 0 };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (
      ((entry as { detail?: unknown }).detail as { kind?: number } | undefined)?.kind ===
      perfConstants.NODE_PERFORMANCE_GC_MINOR
    ) {
      gc.minor++;
      gc.minorMs += entry.duration;
    } else {
      gc.major++;
      gc.majorMs += entry.duration;
    }
  }
}).observe({ entryTypes: ["gc"] });

export function usage(): Usage {
  const r = process.resourceUsage();
  const ms = (ns: number) => Math.round(ns / 1e4) / 100;
  const loopDelay = { p50: ms(loop.percentile(50)), p99: ms(loop.percentile(99)), max: ms(loop.max) };
  loop.reset();
  const m = process.memoryUsage();
  return {
    cpuUs: r.userCPUTime + r.systemCPUTime,
    rssBytes: m.rss,
    maxRssBytes: r.maxRSS * 1024,
    heap: { total: m.heapTotal, used: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers },
    gc: { ...gc },
    loopDelay,
  };
}

/**
 * The same V8 sampler as `node --cpu-prof`, but started and stopped by the
 * parent so a profile covers one measured window, not start-up or the pre-pass.
 */
let session: Session | undefined;
async function profileStart(): Promise<void> {
  session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 1000 });
  await session.post("Profiler.start");
}

/**
 * V8's sampling heap profiler over one measured window, leaving out what died young: what it
 * counts was copied by a scavenge and, once it outlived two, promoted and marked by a full collection.
 */
async function survivorsStart(): Promise<void> {
  session = new Session();
  session.connect();
  await session.post("HeapProfiler.startSampling", {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: false,
  });
}

/** Stops the profiler started (a CPU profile or heap sampling) and writes what it gathered to `path`. */
async function profilerStop(path: unknown, heap: boolean): Promise<void> {
  if (!session) throw new Error("profiler not started");
  const { profile } = heap ? await session.post("HeapProfiler.stopSampling") : await session.post("Profiler.stop");
  session.disconnect();
  session = undefined;
  await writeFile(String(path), JSON.stringify(profile));
}

type Op = (arg: unknown) => unknown;

/**
 * Child side: announces readiness, answers the parent's requests, and exits
 * cleanly on "stop" (a clean exit is what lets `--cpu-prof` write its file).
 */
export function serveParent(ready: Ready, ops: Record<string, Op>, stop: () => Promise<void>): void {
  const send = process.send?.bind(process);
  if (!send) throw new Error("bench children must be started with an IPC channel");
  const all: Record<string, Op> = {
    usage: () => usage(),
    memory: () => sampleMemory(),
    profileStart,
    profileStop: (path) => profilerStop(path, false),
    survivorsStart,
    survivorsStop: (path) => profilerStop(path, true),
    heapSnapshot: (path) => writeHeapSnapshot(String(path)),
    ...ops,
  };
  process.on("message", (message: Request) => {
    if (message?.kind !== "request") return;
    if (message.op === "stop") {
      stop().then(
        () => send({ kind: "reply", id: message.id, ok: true, value: null }, () => process.exit(0)),
        () => process.exit(1),
      );
      return;
    }
    const op = all[message.op];
    Promise.resolve()
      .then(() => {
        if (!op) throw new Error(`unknown op ${message.op}`);
        return op(message.arg);
      })
      .then(
        (value) => send({ kind: "reply", id: message.id, ok: true, value } satisfies Reply),
        (error: unknown) => send({ kind: "reply", id: message.id, ok: false, error: String(error) } satisfies Reply),
      );
  });
  // An orphaned server would keep the port and the CPU busy.
  process.on("disconnect", () => process.exit(0));
  send(ready);
}
