import { ConfigError } from "../../../config.js";

/** Where spans go, from the standard OpenTelemetry variables (see docs/operations.md, Tracing). */
export interface TracingSettings {
  /** The OTLP/HTTP traces URL spans are posted to. */
  readonly tracesUrl: string;
  /** `service.name` of every span. */
  readonly serviceName: string;
}

/** The OTLP/HTTP receiver's default address, as the OpenTelemetry specification gives it. */
const DEFAULT_TRACES_URL = "http://localhost:4318/v1/traces";
const DEFAULT_SERVICE_NAME = "sns-gateway";

type Env = Readonly<Record<string, string | undefined>>;

const setting = (env: Env, name: string): string | undefined => {
  const value = env[name]?.trim();
  return value ? value : undefined;
};

/**
 * Tracing is off unless the environment asks for it: an OTLP endpoint
 * (`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or `OTEL_EXPORTER_OTLP_ENDPOINT`) or
 * `OTEL_TRACES_EXPORTER=otlp`. `OTEL_TRACES_EXPORTER=none` or
 * `OTEL_SDK_DISABLED=true` keep it off whatever else is set. Returns
 * undefined when off; throws ConfigError for an exporter other than otlp
 * or an endpoint that is not an http(s) URL, as an invalid setting stops
 * the process at startup.
 */
export function tracingSettingsFrom(env: Env): TracingSettings | undefined {
  if (setting(env, "OTEL_SDK_DISABLED")?.toLowerCase() === "true") return undefined;
  const exporters = (setting(env, "OTEL_TRACES_EXPORTER") ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== "");
  if (exporters.includes("none")) return undefined;
  const unknown = exporters.filter((name) => name !== "otlp");
  if (unknown.length > 0) {
    throw new ConfigError(`OTEL_TRACES_EXPORTER: only "otlp" or "none" are supported, not "${unknown.join(",")}"`);
  }
  const tracesEndpoint = setting(env, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");
  const endpoint = setting(env, "OTEL_EXPORTER_OTLP_ENDPOINT");
  if (exporters.length === 0 && tracesEndpoint === undefined && endpoint === undefined) return undefined;
  // As the specification says: the signal's own endpoint is the URL itself, the general one gets /v1/traces
  // appended to its path (before any query).
  const tracesUrl = tracesEndpoint ?? (endpoint ? withTracesPath(endpoint) : DEFAULT_TRACES_URL);
  const name = tracesEndpoint ? "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT" : "OTEL_EXPORTER_OTLP_ENDPOINT";
  let parsed: URL;
  try {
    parsed = new URL(tracesUrl);
  } catch {
    throw new ConfigError(`${name}: not a URL`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new ConfigError(`${name}: must be an http:// or https:// URL`);
  }
  return { tracesUrl, serviceName: setting(env, "OTEL_SERVICE_NAME") ?? DEFAULT_SERVICE_NAME };
}

/** `endpoint` with `/v1/traces` appended to its path, its query and fragment kept after it. */
function withTracesPath(endpoint: string): string {
  const split = endpoint.search(/[?#]/);
  const [path, rest] = split < 0 ? [endpoint, ""] : [endpoint.slice(0, split), endpoint.slice(split)];
  return `${path.replace(/\/+$/, "")}/v1/traces${rest}`;
}
