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
}

/** Where a name is resolved: the name service, or a `.sol` name's SRS record. */
export type ResolutionRegistry = "sns" | "srs";
