import type { Logger } from "../../../logger.js";
import type { NodeTracing } from "./node-tracing-port.js";
import type { TracingSettings } from "./tracing-settings.js";

/**
 * The Node gateway's tracing for `settings` (tracing-settings.ts; undefined:
 * off). OpenTelemetry is imported only here, and only when on: with tracing
 * off, no module of it is loaded. `logger`: where failing exports are reported.
 */
export async function loadTracing(
  settings: TracingSettings | undefined,
  serviceVersion: string,
  logger: Logger,
): Promise<NodeTracing | undefined> {
  if (!settings) return undefined;
  const { createNodeTracing } = await import("./node-tracing.js");
  return createNodeTracing(settings, serviceVersion, logger);
}
