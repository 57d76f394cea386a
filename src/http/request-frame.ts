import type { Context, Next } from "hono";
import type { Logger } from "../logger.js";
import type { EndpointSelector } from "../rpc/endpoints.js";
import { type Telemetry, httpMethodLabel } from "../telemetry.js";
import { NO_STORE, cacheControlFor } from "./cache-control.js";
import { preflightAnswer } from "./cors.js";
import type { AppEnv } from "./deps.js";
import { hasAllHeaders } from "./envelope.js";
import { logAnswer, requestIdFor, routePatternOf } from "./request-log.js";
import { namesOverride, offerEndpoint } from "./rpc-param.js";

/** What answers a request inside the frame: a route's handler, or the app's 404/405. */
export type Answerer = (c: Context<AppEnv>, next: Next) => Response | void | Promise<Response | void>;

/** Runs `answer` for a request with everything around it (see `requestFrame`); resolves to the answer. */
export type RequestFrame = (c: Context<AppEnv>, answer: Answerer, next: Next) => Promise<Response>;

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
  /** The answer to a failure of the route (the app's error handler). */
  onError(error: Error, c: Context<AppEnv>): Response | Promise<Response>;
}

/**
 * What every request needs decided before its route, and done once it is
 * answered, around the one handler that answers it. Each concern keeps its
 * rules in its own module; this only calls them in order. The app wraps
 * every route handler (and its 404) in it rather than registering it as
 * middleware: a request matching a single handler skips Hono's compose, so
 * an answer costs no dispatch frame and no promise per concern.
 *
 * Before: the request id (echoed in `X-Request-Id`, errors included), the
 * Cache-Control of a success (cache-policy.ts), the endpoint routes ask for
 * (rpc-param.ts), the override rate limit, and CORS preflights, answered at
 * once (cors.ts). The query is read once, for all of them.
 *
 * After: the headers of answers not built with all of them (envelope.ts),
 * telemetry, and the request's log line (request-log.ts).
 */
export function requestFrame(options: RequestFrameOptions): RequestFrame {
  const { logger, telemetry, requestHeader, cachePolicyOf, endpoints, overrideLimit, onError } = options;

  // As Hono's compose would: a returned answer is the answer, a thrown failure is the error handler's.
  const settle = async (c: Context<AppEnv>, answer: Answerer, next: Next): Promise<void> => {
    try {
      const answered = await answer(c, next);
      if (answered && !c.finalized) c.res = answered;
    } catch (error) {
      if (!(error instanceof Error)) throw error;
      c.error = error;
      c.res = await onError(error, c);
    }
  };

  return async function requestFrame(c, answer, next) {
    const started = performance.now();
    const id = requestIdFor(requestHeader(c, "x-request-id"));
    c.set("requestId", id);
    telemetry.httpRequestStarted();
    const rpcParam = c.req.query("rpc");
    let shared: string | undefined;
    if (c.req.method === "OPTIONS") {
      c.res = preflightAnswer(c.req.header("Access-Control-Request-Headers"));
    } else {
      const overridden = namesOverride(rpcParam);
      shared = overridden ? NO_STORE : cachePolicyOf(c.req.path);
      c.set("sharedCacheControl", shared);
      offerEndpoint(c, endpoints, rpcParam);
      if (!overridden || !overrideLimit) await settle(c, answer, next);
      else {
        // The limiter's 429 is what it returns, without calling on.
        const limited = await overrideLimit(c, () => settle(c, answer, next));
        if (limited && !c.finalized) c.res = limited;
      }
    }
    const res = c.res;
    const { status } = res;
    if (!hasAllHeaders(c)) {
      const { headers } = res;
      if (shared !== undefined) headers.set("Cache-Control", cacheControlFor(shared, status));
      headers.set("Access-Control-Allow-Origin", "*");
      headers.set("X-Request-Id", id);
    }
    const seconds = (performance.now() - started) / 1000;
    const route = routePatternOf(c);
    telemetry.httpRequestFinished(route, httpMethodLabel(c.req.method), status, seconds);
    logAnswer(logger, c, route, status, seconds, rpcParam !== undefined);
    return res;
  };
}
