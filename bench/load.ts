import autocannon from "autocannon";
import { type ConnectionHandlers, LoadConnection } from "./http-client.js";
import { commonSettings } from "./settings.js";

/** A server's expected answer for one path. */
export interface Expected {
  readonly status: number;
  readonly body: string;
}

export interface Mismatch {
  readonly path: string;
  readonly expected: Expected | undefined;
  readonly got: Expected;
}

export interface LoadResult {
  readonly responses: number;
  readonly elapsedS: number;
  readonly rps: number;
  /** Mean latency of the answers in the percentiles (first requests of connections left out). */
  readonly meanMs: number;
  readonly p50Ms: number;
  readonly p90Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /**
   * Slowest answer to a connection's first request. Those are left out of the
   * percentiles: when a run opens hundreds of connections at once against a
   * saturated Node server, the newly accepted ones wait behind the established
   * ones (any Node HTTP server does this, see bench/README.md), which is load
   * generator start-up, not steady-state serving.
   */
  readonly firstRequestMaxMs: number;
  readonly statuses: Record<string, number>;
  /** Connection errors and requests that got no answer within 30 s. */
  readonly errors: number;
  readonly timeouts: number;
  /** Responses compared against the expected answer (all of them). */
  readonly checked: number;
  readonly mismatches: number;
  readonly mismatchExamples: readonly Mismatch[];
  /** Latency by working-set branch: shows which resolution paths set the tail. */
  readonly byBranch: Record<string, { readonly count: number; readonly p50Ms: number; readonly p99Ms: number }>;
}

export interface LoadOptions {
  readonly url: string;
  readonly connections: number;
  readonly durationS: number;
  readonly sequence: readonly string[];
  /** Index into `sequence` of the first request, so both servers see the same order. */
  readonly start: number;
  readonly expected: ReadonlyMap<string, Expected>;
  readonly branchOf: ReadonlyMap<string, string>;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Which client drives the load (BENCH_CLIENT): the raw-socket one by default, autocannon to compare with earlier results. */
export type LoadClient = "raw" | "autocannon";

/** Everything a run records, whichever client produced the answers. */
class Recorder {
  latencies = new Float64Array(1 << 16);
  responses = 0;
  samples = 0;
  firstRequestMaxMs = 0;
  mismatches = 0;
  errors = 0;
  timeouts = 0;
  readonly examples: Mismatch[] = [];
  readonly statuses: Record<string, number> = {};
  readonly branchLatencies = new Map<string, number[]>();
  private readonly expectedBytes = new Map<string, Buffer>();

  constructor(private readonly options: LoadOptions) {}

  /** Counts one answer; `body` is compared as bytes so the common case decodes nothing. */
  record(path: string, status: number, body: Buffer | string, elapsed: number, first: boolean): void {
    this.responses++;
    this.statuses[status] = (this.statuses[status] ?? 0) + 1;
    if (first) {
      this.firstRequestMaxMs = Math.max(this.firstRequestMaxMs, elapsed);
    } else {
      if (this.samples === this.latencies.length) {
        const grown = new Float64Array(this.latencies.length * 2);
        grown.set(this.latencies);
        this.latencies = grown;
      }
      this.latencies[this.samples++] = elapsed;
      const branch = this.options.branchOf.get(path) ?? "?";
      let list = this.branchLatencies.get(branch);
      if (!list) this.branchLatencies.set(branch, (list = []));
      list.push(elapsed);
    }
    const want = this.options.expected.get(path);
    if (want && want.status === status && this.sameBody(path, want, body)) return;
    this.mismatches++;
    const text = typeof body === "string" ? body : body.toString("utf8");
    if (this.examples.length < 10) this.examples.push({ path, expected: want, got: { status, body: text } });
  }

  private sameBody(path: string, want: Expected, body: Buffer | string): boolean {
    if (typeof body === "string") return body === want.body;
    let bytes = this.expectedBytes.get(path);
    if (!bytes) this.expectedBytes.set(path, (bytes = Buffer.from(want.body, "utf8")));
    return bytes.equals(body);
  }

  result(elapsedS: number): LoadResult {
    const sorted = this.latencies.slice(0, this.samples).sort();
    let sum = 0;
    for (const latency of sorted) sum += latency;
    const byBranch: Record<string, { count: number; p50Ms: number; p99Ms: number }> = {};
    for (const [branch, list] of [...this.branchLatencies].sort((a, b) => b[1].length - a[1].length)) {
      const ordered = Float64Array.from(list).sort();
      byBranch[branch] = {
        count: list.length,
        p50Ms: Math.round(percentile(ordered, 50) * 10) / 10,
        p99Ms: Math.round(percentile(ordered, 99) * 10) / 10,
      };
    }
    return {
      responses: this.responses,
      elapsedS,
      rps: this.responses / elapsedS,
      meanMs: sorted.length ? sum / sorted.length : Number.NaN,
      p50Ms: percentile(sorted, 50),
      p90Ms: percentile(sorted, 90),
      p99Ms: percentile(sorted, 99),
      maxMs: sorted.length ? sorted[sorted.length - 1]! : Number.NaN,
      firstRequestMaxMs: this.firstRequestMaxMs,
      statuses: this.statuses,
      errors: this.errors,
      timeouts: this.timeouts,
      checked: this.responses,
      mismatches: this.mismatches,
      mismatchExamples: this.examples,
      byBranch,
    };
  }
}

const TIMEOUT_MS = 30_000;

/**
 * One run of `durationS` seconds. Every connection takes the next path of the
 * shared Zipf sequence, so the request mix does not depend on the connection
 * count. Every answer is compared with the expected one. Answers still in
 * flight when the time is up are abandoned, not counted.
 */
export function runLoad(options: LoadOptions, client: LoadClient = commonSettings().client): Promise<LoadResult> {
  return client === "raw" ? runRaw(options) : runAutocannon(options);
}

async function runRaw(options: LoadOptions): Promise<LoadResult> {
  const { sequence } = options;
  const recorder = new Recorder(options);
  const url = new URL(options.url);
  let cursor = options.start;
  let stopped = false;
  const handlers: ConnectionHandlers = {
    next: () => (stopped ? undefined : sequence[cursor++ % sequence.length]!),
    onAnswer: (path, answer, elapsed, first) => {
      if (!stopped) recorder.record(path, answer.status, answer.body, elapsed, first);
    },
    onError: () => {
      recorder.errors++;
    },
  };
  const connections = Array.from(
    { length: options.connections },
    () => new LoadConnection(url.hostname, Number(url.port), handlers),
  );
  const started = performance.now();
  for (const connection of connections) connection.start();
  const watchdog = setInterval(() => {
    const now = performance.now();
    for (const connection of connections) if (connection.expireIfOverdue(now, TIMEOUT_MS)) recorder.timeouts++;
  }, 1000);
  await new Promise((resolve) => setTimeout(resolve, options.durationS * 1000));
  stopped = true;
  const elapsedS = (performance.now() - started) / 1000;
  clearInterval(watchdog);
  for (const connection of connections) connection.close();
  return recorder.result(elapsedS);
}

async function runAutocannon(options: LoadOptions): Promise<LoadResult> {
  const { sequence } = options;
  const recorder = new Recorder(options);
  let cursor = options.start;
  const started = performance.now();
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.durationS,
    pipelining: 1,
    timeout: TIMEOUT_MS / 1000,
    setupClient(client) {
      // The context that carries the connection's first request (autocannon resets it for every later one).
      const iterator = (client as { requestIterator?: { context?: Record<string, unknown> } }).requestIterator;
      if (iterator?.context) iterator.context.first = true;
    },
    requests: [
      {
        method: "GET",
        setupRequest(request, context) {
          const path = sequence[cursor++ % sequence.length]!;
          context.path = path;
          context.sentAt = performance.now();
          request.path = path;
          return request;
        },
        onResponse(status, body, context) {
          const elapsed = performance.now() - (context.sentAt as number);
          recorder.record(context.path as string, status, body, elapsed, context.first === true);
        },
      },
    ],
  });
  recorder.errors = result.errors;
  recorder.timeouts = result.timeouts;
  return recorder.result((performance.now() - started) / 1000);
}

/** GET with a small concurrency limit; answers in input order. */
export async function fetchAll(base: string, paths: readonly string[], concurrency: number): Promise<Expected[]> {
  const answers: Expected[] = new Array(paths.length);
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const i = next++;
      const response = await fetch(base + paths[i]!);
      answers[i] = { status: response.status, body: await response.text() };
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return answers;
}
