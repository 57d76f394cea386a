import autocannon from "autocannon";

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
  /** Connection errors and timeouts as autocannon counts them. */
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

/**
 * One autocannon run. Every connection takes the next path of the shared
 * Zipf sequence, so the request mix does not depend on the connection count.
 * Every answer is compared with the expected one.
 */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const { sequence, expected } = options;
  let cursor = options.start;
  let latencies = new Float64Array(1 << 16);
  let responses = 0;
  let samples = 0;
  let firstRequestMaxMs = 0;
  let mismatches = 0;
  const examples: Mismatch[] = [];
  const statuses: Record<string, number> = {};
  const branchLatencies = new Map<string, number[]>();

  const started = performance.now();
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.durationS,
    pipelining: 1,
    timeout: 30,
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
          responses++;
          statuses[status] = (statuses[status] ?? 0) + 1;
          const path = context.path as string;
          if (context.first === true) {
            firstRequestMaxMs = Math.max(firstRequestMaxMs, elapsed);
          } else {
            if (samples === latencies.length) {
              const grown = new Float64Array(latencies.length * 2);
              grown.set(latencies);
              latencies = grown;
            }
            latencies[samples++] = elapsed;
            const branch = options.branchOf.get(path) ?? "?";
            let list = branchLatencies.get(branch);
            if (!list) branchLatencies.set(branch, (list = []));
            list.push(elapsed);
          }
          const want = expected.get(path);
          if (!want || want.status !== status || want.body !== body) {
            mismatches++;
            if (examples.length < 10) examples.push({ path, expected: want, got: { status, body } });
          }
        },
      },
    ],
  });
  const elapsedS = (performance.now() - started) / 1000;
  const sorted = latencies.slice(0, samples).sort();
  const byBranch: LoadResult["byBranch"] = {};
  for (const [branch, list] of [...branchLatencies].sort((a, b) => b[1].length - a[1].length)) {
    const ordered = Float64Array.from(list).sort();
    byBranch[branch] = {
      count: list.length,
      p50Ms: Math.round(percentile(ordered, 50) * 10) / 10,
      p99Ms: Math.round(percentile(ordered, 99) * 10) / 10,
    };
  }
  return {
    responses,
    elapsedS,
    rps: responses / elapsedS,
    p50Ms: percentile(sorted, 50),
    p90Ms: percentile(sorted, 90),
    p99Ms: percentile(sorted, 99),
    maxMs: sorted.length ? sorted[sorted.length - 1]! : Number.NaN,
    firstRequestMaxMs,
    statuses,
    errors: result.errors,
    timeouts: result.timeouts,
    checked: responses,
    mismatches,
    mismatchExamples: examples,
    byBranch,
  };
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
