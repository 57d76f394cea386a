import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import {
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  createContextKey,
  trace,
} from "@opentelemetry/api";
import type { Logger, RequestLine } from "../../../logger.js";
import { httpMethodLabel } from "../../../telemetry.js";
import { incomingHeader } from "../request-header.js";
import type { Spans } from "./spans.js";

/** The server span of the request a context belongs to, and whether its request line has completed it. */
interface ServerRequest {
  readonly span: Span;
  answered: boolean;
  /** Set once the client closed before any answer: the request line, or this timer, ends the span. */
  abandoned?: ReturnType<typeof setTimeout>;
}

/**
 * Longest a request the client abandoned keeps its span open for the
 * request line, which comes when the handler's work ends (within the
 * request's RPC deadline): past it, the span ends without route or id.
 */
const ABANDONED_LINE_WAIT_MS = 60_000;

const SERVER_REQUEST = createContextKey("sns_gateway.server_request");

/** Reads `traceparent` and `tracestate` from the headers Node parsed, without building `request.headers`. */
const incomingGetter: TextMapGetter<IncomingMessage> = {
  get: (request, key) => incomingHeader(request, key),
  keys: () => [],
};

/**
 * A server span around the handling of each request, answered inside the
 * app or before it. A client's W3C `traceparent` is continued (the span
 * joins its trace as a child of the client's span); without one, or with
 * an invalid one, a new trace starts. The span is the active context while
 * the request is handled, so the spans of its work are its children. It
 * ends when the response is closed, or, for a request its client abandoned
 * before any answer (`error.type` `aborted`, no status), when its request
 * line is written. Only the method is known here; the
 * route, status and request id come from the request's line (`requestLine`).
 * The URL is never put on the span: its query may hold an `rpc` URL with a key.
 */
export function aroundRequest({ tracer, contexts, propagator }: Spans) {
  return (listener: RequestListener): RequestListener =>
    (request: IncomingMessage, response: ServerResponse) => {
      const parent = propagator.extract(ROOT_CONTEXT, request, incomingGetter);
      const method = request.method ?? "GET";
      const known = httpMethodLabel(method) !== "OTHER";
      const span = tracer.startSpan(
        spanMethod(method),
        {
          kind: SpanKind.SERVER,
          // Node's parser takes only the methods it knows: the original is one of those, never free text.
          attributes: known
            ? { "http.request.method": method }
            : { "http.request.method": "_OTHER", "http.request.method_original": method },
        },
        parent,
      );
      const state: ServerRequest = { span, answered: false };
      response.once("close", () => {
        if (state.answered) span.end();
        else if (response.writableFinished) {
          // Refused below the app (no request line): the status Node wrote is all there is.
          statusOn(span, response.statusCode);
          span.end();
        } else {
          // The client went away before any answer: no status was sent. The handler's request line,
          // written when its work ends, still gives the route and the request id, and ends the span.
          span.setAttribute("error.type", "aborted");
          state.abandoned = setTimeout(() => {
            state.answered = true;
            span.end();
          }, ABANDONED_LINE_WAIT_MS);
          state.abandoned.unref();
        }
      });
      contexts.with(
        trace.setSpan(parent, span).setValue(SERVER_REQUEST, state),
        listener,
        undefined,
        request,
        response,
      );
    };
}

/** A span name's method, as the HTTP semantic conventions name it: `HTTP` for one outside the known set. */
function spanMethod(method: string): string {
  const label = httpMethodLabel(method);
  return label === "OTHER" ? "HTTP" : label;
}

function statusOn(span: Span, status: number): void {
  span.setAttribute("http.response.status_code", status);
  if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
}

/**
 * `logger` whose request lines also complete the server span of the request
 * they are written in: every answer's one record (src/http/answer/finish.ts)
 * gives the route's pattern (`http.route`, never the raw path), the status,
 * the request id, what it asked of RPC and its failure code.
 */
export function requestLineSpans({ contexts }: Spans, logger: Logger): Logger {
  const traced: Logger = Object.create(logger) as Logger;
  traced.request = (line: RequestLine) => {
    const state = contexts.active().getValue(SERVER_REQUEST) as ServerRequest | undefined;
    if (state && !state.answered) {
      state.answered = true;
      const { span } = state;
      span.updateName(`${spanMethod(line.method)} ${line.route}`);
      span.setAttributes({
        "http.route": line.route,
        "sns_gateway.request_id": line.reqId,
        "sns_gateway.rpc_calls": line.rpcCalls,
        "sns_gateway.rpc_accounts": line.rpcAccounts,
        "sns_gateway.rpc_override": line.rpcOverride,
      });
      if (line.error !== undefined) span.setAttribute("sns_gateway.error", line.error);
      if (state.abandoned) {
        clearTimeout(state.abandoned);
        span.end();
      } else statusOn(span, line.status);
    }
    if (logger.request) logger.request(line);
    else logger.info(line, "request");
  };
  return traced;
}
