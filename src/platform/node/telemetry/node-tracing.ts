import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from "@opentelemetry/semantic-conventions";
import { hostLabels } from "../../../rpc/failover/host-label.js";
import type { Logger } from "../../../logger.js";
import type { NodeTracing } from "./node-tracing-port.js";
import { reportingExporter } from "./reporting-exporter.js";
import { resolutionSpans } from "./resolution-spans.js";
import { tracedTransports } from "./rpc-spans.js";
import { aroundRequest, requestLineSpans } from "./server-spans.js";
import type { Spans } from "./spans.js";
import { traceHeaderInterceptor } from "./trace-header.js";
import type { TracingSettings } from "./tracing-settings.js";

/**
 * Tracing with the OpenTelemetry SDK: spans are batched (every 5 s, or 512
 * at a time) and posted as OTLP/HTTP JSON by the exporter, off the path of
 * any answer. A collector that is slow or unreachable costs a failed post
 * in the background; past 2048 spans waiting, new ones are dropped.
 */
export function createNodeTracing(settings: TracingSettings, serviceVersion: string, logger: Logger): NodeTracing {
  const collector = hostLabels([settings.tracesUrl])[0]!;
  const exporter = reportingExporter(new OTLPTraceExporter({ url: settings.tracesUrl }), logger, collector);
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: settings.serviceName,
      [ATTR_SERVICE_VERSION]: serviceVersion,
    }),
    spanProcessors: [new BatchSpanProcessor({ exporter })],
  });
  const contexts = new AsyncLocalStorageContextManager();
  contexts.enable();
  const spans: Spans = {
    tracer: provider.getTracer("sns-gateway", serviceVersion),
    contexts,
    propagator: new W3CTraceContextPropagator(),
  };
  return {
    collector,
    serviceName: settings.serviceName,
    tracer: resolutionSpans(spans),
    aroundRequest: aroundRequest(spans),
    requestLogger: (logger) => requestLineSpans(spans, logger),
    transports: (factory) => tracedTransports(factory, spans),
    interceptor: traceHeaderInterceptor(spans),
    async shutdown(boundMs) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const bound = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, boundMs);
        timer.unref();
      });
      // A collector that does not answer holds the export until its own timeout: the bound cuts it short.
      await Promise.race([provider.shutdown().catch(() => undefined), bound]);
      clearTimeout(timer);
      contexts.disable();
    },
  };
}
