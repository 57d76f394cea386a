import { defaultTextMapSetter } from "@opentelemetry/api";
import type { Dispatcher } from "undici";
import type { Spans } from "./spans.js";

/**
 * An undici interceptor that adds the active span's W3C `traceparent` (and
 * `tracestate`, when the trace has one) to each request: dispatched by a
 * traced transport (rpc-spans.ts), that is the RPC request's own span, so
 * the RPC node's spans, if it makes any, are its children.
 */
export function traceHeaderInterceptor({ contexts, propagator }: Spans): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) =>
    function dispatchTraced(options, handler) {
      const carrier: Record<string, string> = {};
      propagator.inject(contexts.active(), carrier, defaultTextMapSetter);
      // A client's tracestate the propagator dropped (past its 512 characters, or malformed) is injected
      // as an empty value: no header at all is sent for it.
      if (carrier.tracestate === "") delete carrier.tracestate;
      const added = Object.entries(carrier).flat();
      if (added.length === 0) return dispatch(options, handler);
      const { headers } = options;
      const traced = Array.isArray(headers)
        ? [...(headers as string[]), ...added]
        : { ...(headers as Record<string, string> | undefined), ...carrier };
      return dispatch({ ...options, headers: traced }, handler);
    };
}
