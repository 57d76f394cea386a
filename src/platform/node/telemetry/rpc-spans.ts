import { SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { hostLabels } from "../../../rpc/failover/host-label.js";
import type { RpcTransport, TransportFactory } from "../../../rpc/transport/contract.js";
import { outcomeOf } from "../../../rpc/transport/instrumented.js";
import { rpcErrorsIn, summarizeRpcBody } from "./rpc-body.js";
import { OUTCOME, type Spans } from "./spans.js";

/**
 * `factory` whose transports make one client span per RPC HTTP request (one
 * call or a batch; each attempt of a failover or a hedge is one request to
 * one endpoint, so one span). Its parent is the context active when the
 * post is sent: the resolution (or, for a read outside one, the request)
 * that sent it. A batch gathering the reads of several requests
 * (src/rpc/account-loader.ts) is sent in the context of the first read
 * that opened it, and belongs to that request's trace only.
 *
 * The endpoint is named by its host label (src/rpc/failover/host-label.ts):
 * an RPC URL may carry an API key in its userinfo, path or query, and none
 * of those is ever put on a span.
 */
export function tracedTransports(factory: TransportFactory, spans: Spans): TransportFactory {
  return {
    trusted: (url, limits) => traced(factory.trusted(url, limits), "rpc_url", spans),
    override: (url, limits) => traced(factory.override(url, limits), "override", spans),
    close: () => factory.close(),
  };
}

function traced(transport: RpcTransport, kind: "rpc_url" | "override", { tracer, contexts }: Spans): RpcTransport {
  const endpoint = hostLabels([transport.url])[0]!;
  const hostname = new URL(transport.url).hostname;
  return {
    url: transport.url,
    maxResponseBytes: transport.maxResponseBytes,
    post(body, limits, signal, payers) {
      const parent = contexts.active();
      const { methods, calls, keys } = summarizeRpcBody(body);
      const span = tracer.startSpan(
        `jsonrpc ${methods}`,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            "rpc.system": "jsonrpc",
            "rpc.method": methods,
            "server.address": hostname,
            "sns_gateway.rpc.endpoint": endpoint,
            "sns_gateway.rpc.endpoint_kind": kind,
            "sns_gateway.rpc.calls": calls,
            "sns_gateway.rpc.keys": keys,
          },
        },
        parent,
      );
      const failed = (error: unknown): never => {
        span.setAttribute(OUTCOME, outcomeOf(error));
        span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
        throw error;
      };
      let posted: Promise<unknown>;
      try {
        // The span is the active context while the request is dispatched: trace-header.ts sends its traceparent.
        posted = contexts.with(trace.setSpan(parent, span), transport.post, transport, body, limits, signal, payers);
      } catch (error) {
        return failed(error);
      }
      return posted.then((answer) => {
        const errors = rpcErrorsIn(answer);
        span.setAttribute(OUTCOME, errors > 0 ? "rpc_error" : "ok");
        if (errors > 0) span.setAttribute("sns_gateway.rpc.errors", errors);
        span.end();
        return answer;
      }, failed);
    },
  };
}
