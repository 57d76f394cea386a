import type { Context, MiddlewareHandler, Next } from "hono";
import type { Logger } from "../logger.js";
import type { EndpointSelector } from "../rpc/endpoints.js";
import { type Telemetry, httpMethodLabel } from "../telemetry.js";
import { NO_STORE, cacheControlFor } from "./cache-control.js";
import { preflightAnswer } from "./cors.js";
import type { AppEnv } from "./deps.js";
import { hasAllHeaders } from "./envelope.js";
import { logAnswer, requestIdFor, routePatternOf } from "./request-log.js";
import { namesOverride, offerEndpoint } from "./rpc-param.js";

export interface RequestFrameOptions {
  readonly logger: Logger;
  readonly telemetry: Telemetry;
  /** A request header by its lower-case name (AppDeps.requestHeader). */
  requestHeader(c: Context, name: string): string | undefined;
  /** The Cache-Control a success on a path earns (cache-policy.ts). */
  cachePolicyOf(path: string): string;
  readonly endpoints: EndpointSelector;
  /** Counts requests naming an `rpc` override (override-rate-limit.ts); absent: unlimited. */
  readonly overrideLimit?: (c: Context<AppEnv>, next: Next) => Promise<Response | void>;
}

/**
 * The app's one middleware, outermost: what every request needs decided
 * before its route, and done once it is answered. Each concern keeps its
 * rules in its own module; this only calls them in order, so an answer
 * passes one middleware frame rather than one per concern.
 *
 * Before: the request id (echoed in `X-Request-Id`, errors included), the
 * Cache-Control of a success (cache-policy.ts), the endpoint routes ask for
 * (rpc-param.ts), the override rate limit, and CORS preflights, answered at
 * once (cors.ts). The query is read once, for all of them.
 *
 * After: the headers of answers not built with all of them (envelope.ts),
 * telemetry, and the request's log line (request-log.ts).
 */
export function requestFrame(options: RequestFrameOptions): MiddlewareHandler<AppEnv> {
  const { logger, telemetry, requestHeader, cachePolicyOf, endpoints, overrideLimit } = options;
  return async function requestFrame(c, next) {
    const started = performance.now();
    const id = requestIdFor(requestHeader(c, "x-request-id"));
    c.set("requestId", id);
    telemetry.httpRequestStarted();
    const rpcParam = c.req.query("rpc");
    const preflight = c.req.method === "OPTIONS";
    let shared: string | undefined;
    if (preflight) {
      c.res = preflightAnswer(c.req.header("Access-Control-Request-Headers"));
    } else {
      const overridden = namesOverride(rpcParam);
      shared = overridden ? NO_STORE : cachePolicyOf(c.req.path);
      c.set("sharedCacheControl", shared);
      offerEndpoint(c, endpoints, rpcParam);
      if (!overridden || !overrideLimit) await next();
      else {
        // What a middleware returns becomes the answer, as compose would have it (the limiter's 429).
        const limited = await overrideLimit(c, next);
        if (limited && !c.finalized) c.res = limited;
      }
    }
    const answer = c.res;
    const { status } = answer;
    if (!hasAllHeaders(c)) {
      const { headers } = answer;
      if (shared !== undefined) headers.set("Cache-Control", cacheControlFor(shared, status));
      headers.set("Access-Control-Allow-Origin", "*");
      headers.set("X-Request-Id", id);
    }
    const seconds = (performance.now() - started) / 1000;
    const route = routePatternOf(c);
    telemetry.httpRequestFinished(route, httpMethodLabel(c.req.method), status, seconds);
    logAnswer(logger, c, route, status, seconds, rpcParam !== undefined);
  };
}
