import { describe, expect, it } from "vitest";
import { ConfigError } from "../../../src/config.js";
import { loadTracing } from "../../../src/platform/node/telemetry/load-tracing.js";
import { tracingSettingsFrom } from "../../../src/platform/node/telemetry/tracing-settings.js";

// Which standard OpenTelemetry variables turn tracing on, and where spans then go.

describe("tracing settings from the OTEL_* variables", () => {
  it("off without any of them, and then nothing of OpenTelemetry is loaded", async () => {
    expect(tracingSettingsFrom({})).toBeUndefined();
    expect(tracingSettingsFrom({ OTEL_SERVICE_NAME: "named" })).toBeUndefined();
    expect(await loadTracing(tracingSettingsFrom({}), "0.0.0", console)).toBeUndefined();
  });

  it("OTEL_EXPORTER_OTLP_ENDPOINT: its /v1/traces; the traces endpoint: as given, and first", () => {
    expect(tracingSettingsFrom({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" })).toEqual({
      tracesUrl: "http://collector:4318/v1/traces",
      serviceName: "sns-gateway",
    });
    expect(
      tracingSettingsFrom({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://traces.example/custom",
        OTEL_SERVICE_NAME: "edge-gateway",
      }),
    ).toEqual({ tracesUrl: "https://traces.example/custom", serviceName: "edge-gateway" });
  });

  it("OTEL_EXPORTER_OTLP_ENDPOINT with a query: /v1/traces goes on the path, the query after it", () => {
    expect(tracingSettingsFrom({ OTEL_EXPORTER_OTLP_ENDPOINT: "https://collector/otlp/?tenant=a" })?.tracesUrl).toBe(
      "https://collector/otlp/v1/traces?tenant=a",
    );
    expect(tracingSettingsFrom({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318?x=1#f" })?.tracesUrl).toBe(
      "http://collector:4318/v1/traces?x=1#f",
    );
  });

  it("OTEL_TRACES_EXPORTER=otlp alone: the default local receiver", () => {
    expect(tracingSettingsFrom({ OTEL_TRACES_EXPORTER: "otlp" })?.tracesUrl).toBe("http://localhost:4318/v1/traces");
  });

  it("OTEL_TRACES_EXPORTER=none or OTEL_SDK_DISABLED=true keep it off whatever else is set", () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" };
    expect(tracingSettingsFrom({ ...endpoint, OTEL_TRACES_EXPORTER: "none" })).toBeUndefined();
    expect(tracingSettingsFrom({ ...endpoint, OTEL_SDK_DISABLED: "true" })).toBeUndefined();
  });

  it("an exporter it does not have, or an endpoint that is not an http(s) URL, stops the start", () => {
    expect(() => tracingSettingsFrom({ OTEL_TRACES_EXPORTER: "zipkin" })).toThrow(ConfigError);
    expect(() => tracingSettingsFrom({ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT/,
    );
    expect(() => tracingSettingsFrom({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "not a url" })).toThrow(
      /OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: not a URL/,
    );
  });
});
