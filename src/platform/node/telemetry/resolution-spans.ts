import { type Context, ROOT_CONTEXT, SpanStatusCode, trace } from "@opentelemetry/api";
import { SnsError } from "../../../sns/errors.js";
import type { Tracer } from "../../../tracer.js";
import { OUTCOME, type Spans, outcomeOfError } from "./spans.js";

/**
 * The Tracer port (src/tracer.ts) on OpenTelemetry: a span per resolution,
 * child of whatever span is active (the request's server span), and the
 * active one while the resolution's reads are sent, so their RPC spans are
 * its children. A protocol answer (a name that does not exist) is an
 * outcome like any other, not an error status.
 */
export function resolutionSpans({ tracer, contexts }: Spans): Tracer {
  return {
    contexts: {
      capture: () => contexts.active(),
      runIn: (context, work) => contexts.with((context as Context | undefined) ?? ROOT_CONTEXT, work),
    },
    resolution(registry, name, work, settled) {
      const parent = contexts.active();
      const attributes = { "sns.registry": registry, "sns.name": name };
      const span = tracer.startSpan(`resolve ${registry}`, { attributes }, parent);
      let result;
      try {
        result = contexts.with(trace.setSpan(parent, span), work);
      } catch (error) {
        span.setAttribute(OUTCOME, outcomeOfError(error));
        span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
        throw error;
      }
      settled(result).then(
        () => {
          span.setAttribute(OUTCOME, "ok");
          span.end();
        },
        (error: unknown) => {
          const outcome = outcomeOfError(error);
          span.setAttribute(OUTCOME, outcome);
          if (!(error instanceof SnsError)) span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
        },
      );
      return result;
    },
  };
}
