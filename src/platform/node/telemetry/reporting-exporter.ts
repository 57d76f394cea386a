import { ExportResultCode } from "@opentelemetry/core";
import type { SpanExporter } from "@opentelemetry/sdk-trace";
import type { Logger } from "../../../logger.js";
import { outcomeOfError } from "./spans.js";

/**
 * `exporter`, logging once when exports start failing (a collector down,
 * refusing, or too slow) and once when they succeed again: the spans of a
 * failed export are dropped, and nothing else would say so. The error is
 * named by code or class: an exporter's message may quote the collector's answer.
 */
export function reportingExporter(exporter: SpanExporter, logger: Logger, collector: string): SpanExporter {
  let failing = false;
  return {
    export(spans, done) {
      exporter.export(spans, (result) => {
        if (result.code !== ExportResultCode.SUCCESS) {
          if (!failing) {
            failing = true;
            logger.warn(
              { collector, error: outcomeOfError(result.error), spans: spans.length },
              "tracing: export failed, spans dropped until the collector takes them again",
            );
          }
        } else if (failing) {
          failing = false;
          logger.info({ collector }, "tracing: the collector takes spans again");
        }
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}
