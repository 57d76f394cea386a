import type { NodeTracing } from "./node-tracing-port.js";
import { tracingSettingsFrom } from "./tracing-settings.js";

/**
 * The Node gateway's tracing when the environment asks for it
 * (tracing-settings.ts), else undefined. OpenTelemetry is imported only
 * then: with tracing off, no module of it is loaded.
 * @throws ConfigError for an invalid setting
 */
export async function loadTracing(
  env: Readonly<Record<string, string | undefined>>,
  serviceVersion: string,
): Promise<NodeTracing | undefined> {
  const settings = tracingSettingsFrom(env);
  if (!settings) return undefined;
  const { createNodeTracing } = await import("./node-tracing.js");
  return createNodeTracing(settings, serviceVersion);
}
