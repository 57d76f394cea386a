/**
 * Spans around the units of work the layers know of, as a port with no
 * tracing library behind it: Node implements it with OpenTelemetry when an
 * exporter is configured (src/platform/node/telemetry/), and otherwise no
 * tracer is given, so the layers call nothing at all.
 */
export interface Tracer {
  /**
   * Runs `work`, one resolution of `name` in `registry`, inside a span that
   * is a child of the current one, so the RPC requests it sends are that
   * span's children; the span ends when `settled(result)` settles. Returns
   * what `work` returned.
   */
  resolution<T>(registry: ResolutionRegistry, name: string, work: () => T, settled: (result: T) => Promise<unknown>): T;
  /** The trace context, carried into work that runs later (TraceContexts). */
  readonly contexts: TraceContexts;
}

/** Where a name is resolved: the name service, or a `.sol` name's SRS record. */
export type ResolutionRegistry = "sns" | "srs";

/**
 * The trace context work runs in, as a value with no tracing library behind
 * it, for work one request starts that runs later for others: a batch of
 * RPC reads (src/rpc/account-loader.ts) is sent in the context of the read
 * that opened it, not in whichever request's callback happens to send it;
 * shared background work (the tokenized index) runs in none.
 */
export interface TraceContexts {
  /** The context active now. */
  capture(): unknown;
  /** Runs `work` in `context` (one `capture` returned; undefined: no trace) and returns what it returned. */
  runIn<T>(context: unknown, work: () => T): T;
}
