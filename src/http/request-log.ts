import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import { type Telemetry, UNMATCHED_ROUTE, httpMethodLabel } from "../telemetry.js";
import type { Logger, RequestLine } from "../logger.js";
import type { AppEnv } from "./deps.js";
import { hasAllHeaders } from "./envelope.js";
import { errorCode } from "./error-table.js";

/** An incoming id is kept when it is a plain token: printable ASCII, no spaces, bounded. */
const SANE_REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

export function requestIdFor(given: string | undefined): string {
  return given !== undefined && SANE_REQUEST_ID.test(given) ? given : crypto.randomUUID();
}

/**
 * The route pattern a request matched (`/resolve/:domain`), from Hono's
 * match result: the last matched handler route, middleware aside. Requests
 * no route matched (404, 405, CORS preflights) share one label, so neither
 * metrics nor logs ever carry a raw path.
 */
export function routePatternOf(c: Parameters<MiddlewareHandler<AppEnv>>[0]): string {
  const routes = matchedRoutes(c);
  for (let i = routes.length - 1; i >= 0; i--) {
    const route = routes[i]!;
    if (route.method !== "ALL") return route.path;
  }
  return UNMATCHED_ROUTE;
}

/**
 * Outermost middleware: gives every request an id (echoed in
 * `X-Request-Id`, errors included), reports it to telemetry, and writes one
 * log line when it is answered. The line never holds the path's query
 * string or the `rpc` parameter: an override URL may carry an API key.
 */
export const observeRequests = (
  logger: Logger,
  telemetry: Telemetry,
  requestHeader: (c: Context, name: string) => string | undefined,
): MiddlewareHandler<AppEnv> =>
  async function observeRequests(c, next) {
    const started = performance.now();
    const id = requestIdFor(requestHeader(c, "x-request-id"));
    c.set("requestId", id);
    telemetry.httpRequestStarted();
    await next();
    const seconds = (performance.now() - started) / 1000;
    const { status } = c.res;
    const route = routePatternOf(c);
    if (!hasAllHeaders(c)) c.res.headers.set("X-Request-Id", id);
    telemetry.httpRequestFinished(route, httpMethodLabel(c.req.method), status, seconds);
    const failure = c.get("error");
    const usage = c.get("rpcUsage");
    const line: RequestLine = {
      reqId: id,
      method: c.req.method,
      route,
      status,
      ms: Math.round(seconds * 100_000) / 100,
      rpcCalls: usage?.calls ?? 0,
      rpcAccounts: usage?.accounts ?? 0,
      // That an override was given, never what it was.
      rpcOverride: c.req.query("rpc") !== undefined,
    };
    if (failure !== undefined) line.error = errorCode(failure);
    if (logger.request) logger.request(line);
    else logger.info(line, "request");
  };
