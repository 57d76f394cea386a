import type { Context, Next } from "hono";
import type { Logger } from "../../logger.js";
import type { EndpointSelector } from "../../rpc/endpoints.js";
import { type Telemetry, UNMATCHED_ROUTE, httpMethodLabel } from "../../telemetry.js";
import { NO_STORE, cacheControlFor } from "../answer/cache-control.js";
import { preflightAnswer } from "./preflight.js";
import type { AppEnv } from "../deps.js";
import { hasAllHeaders } from "../answer/envelope.js";
import { logAnswer, requestIdFor } from "../answer/request-log.js";
import { namesOverride, offerEndpoint } from "./endpoint.js";
import type { YieldToLoop } from "./rpc-usage.js";
import { RpcBudgetError } from "../../rpc/request-budget.js";

/** What answers a request inside the frame: a route's handler, or the app's 404/405. */
export type Answerer = (c: Context<AppEnv>, next: Next) => Response | void | Promise<Response | void>;

/** Runs `answer` for a request with everything around it (see `requestFrame`): synchronously when `answer` is. */
export type RouteFrame = (c: Context<AppEnv>, answer: Answerer, next: Next) => Response | Promise<Response>;

/**
 * The frame of one route, by the pattern its handlers were registered under
 * (routes do not overlap, so it is the one Hono matched), or UNMATCHED_ROUTE
 * for the 404/405 frame.
 */
export type RequestFrame = (route: string) => RouteFrame;

export interface RequestFrameOptions {
  readonly logger: Logger;
  readonly telemetry: Telemetry;
  /** A request header by its lower-case name (AppDeps.requestHeader). */
  requestHeader(c: Context, name: string): string | undefined;
  /** The Cache-Control a success on a path earns (answer/cache-policy.ts). */
  cachePolicyOf(path: string): string;
  readonly endpoints: EndpointSelector;
  /** Counts what requests naming an `rpc` override cost their client (override-rate-limit.ts); absent: unlimited. */
  readonly overrideLimit?: (c: Context<AppEnv>, next: Next) => Promise<Response | void>;
  /** Lets the event loop serve others between slices of a request's work over RPC-supplied lists. */
  readonly yieldToLoop: YieldToLoop;
  /** The answer to a failure of the route (the app's error handler). */
  onError(error: Error, c: Context<AppEnv>): Response | Promise<Response>;
}

/**
 * `answered`, or the request's budget error once its deadline has passed:
 * work still under way (an exchange, a slice of a list) stops at its next
 * look at the budget, but the client has its answer by the deadline.
 */
function withinDeadline(c: Context<AppEnv>, answered: Response | void | Promise<Response | void>): Promise<Response | void> | Response | void {
  const budget = c.get("rpcBudget");
  if (!(answered instanceof Promise) || !budget) return answered;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(budget.exhausted ?? new RpcBudgetError("deadline", `request deadline of ${budget.limits.deadlineMs} ms passed`));
    }, budget.remainingMs());
    answered.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
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
 * Cache-Control of a success (answer/cache-policy.ts), the endpoint routes ask for
 * (endpoint.ts), the override rate limit, and CORS preflights, answered at
 * once (preflight.ts). The query is read once, for all of them.
 *
 * After: the headers of answers not built with all of them (answer/envelope.ts),
 * telemetry, and the request's log line (answer/request-log.ts).
 */
export function requestFrame(options: RequestFrameOptions): RequestFrame {
  const { logger, telemetry, requestHeader, cachePolicyOf, endpoints, onError, yieldToLoop } = options;
  const overrideLimit = options.overrideLimit ?? ((_c: Context<AppEnv>, next: Next) => next());

  // A thrown failure is the error handler's answer, as in Hono's compose.
  const fail = (c: Context<AppEnv>, error: unknown): void | Promise<void> => {
    if (!(error instanceof Error)) throw error;
    c.error = error;
    const answer = onError(error, c);
    if (!(answer instanceof Promise)) c.res = answer;
    else return answer.then((res) => void (c.res = res));
  };

  // As Hono's compose would: a returned answer is the answer.
  const settle = (c: Context<AppEnv>, answered: Response | void): void => {
    if (answered && !c.finalized) c.res = answered;
  };

  // After the answer: its remaining headers, telemetry and the log line.
  const finish = (c: Context<AppEnv>, route: string, started: number, shared: string | undefined, rpcGiven: boolean): Response => {
    const res = c.res;
    const { status } = res;
    if (!hasAllHeaders(c)) {
      const { headers } = res;
      if (shared !== undefined) headers.set("Cache-Control", cacheControlFor(shared, status));
      headers.set("Access-Control-Allow-Origin", "*");
      headers.set("X-Request-Id", c.get("requestId"));
    }
    const seconds = (performance.now() - started) / 1000;
    telemetry.httpRequestFinished(route, httpMethodLabel(c.req.method), status, seconds);
    logAnswer(logger, c, route, status, seconds, rpcGiven);
    return res;
  };

  const finishAfterFailure = (
    c: Context<AppEnv>,
    error: unknown,
    route: string,
    started: number,
    shared: string,
    rpcGiven: boolean,
  ): Response | Promise<Response> => {
    const failed = fail(c, error);
    return failed ? failed.then(() => finish(c, route, started, shared, rpcGiven)) : finish(c, route, started, shared, rpcGiven);
  };

  return (route) => {
    // A route's pattern earns the Cache-Control its paths would (cache-policy.ts goes by prefix); the 404/405 goes by path.
    const routePolicy = route === UNMATCHED_ROUTE ? undefined : cachePolicyOf(route);

    return function requestFrame(c, answer, next) {
      const started = performance.now();
      c.set("requestId", requestIdFor(requestHeader(c, "x-request-id")));
      telemetry.httpRequestStarted();
      const rpcParam = c.req.query("rpc");
      const rpcGiven = rpcParam !== undefined;
      if (c.req.method === "OPTIONS") {
        c.res = preflightAnswer(c.req.header("Access-Control-Request-Headers"));
        return finish(c, route, started, undefined, rpcGiven);
      }
      const overridden = namesOverride(rpcParam);
      const shared = overridden ? NO_STORE : (routePolicy ?? cachePolicyOf(c.req.path));
      c.set("sharedCacheControl", shared);
      offerEndpoint(c, endpoints, rpcParam, yieldToLoop);
      if (overridden) {
        // The limiter's 429 is what it returns, without calling on. An override's answer
        // comes by its budget's deadline, whatever its endpoint does (see withinDeadline).
        const answering = async (): Promise<void> => {
          let answered: Response | void;
          try {
            answered = await withinDeadline(c, answer(c, next));
          } catch (error) {
            return fail(c, error);
          }
          settle(c, answered);
        };
        return overrideLimit(c, answering).then((limited) => {
          settle(c, limited);
          return finish(c, route, started, shared, rpcGiven);
        });
      }
      // The answer at hand is finished at once; a promised one in the one step that settles it.
      let answered: Response | void | Promise<Response | void>;
      try {
        answered = answer(c, next);
      } catch (error) {
        return finishAfterFailure(c, error, route, started, shared, rpcGiven);
      }
      if (!(answered instanceof Promise)) {
        settle(c, answered);
        return finish(c, route, started, shared, rpcGiven);
      }
      return answered.then(
        (res) => {
          settle(c, res);
          return finish(c, route, started, shared, rpcGiven);
        },
        (error: unknown) => finishAfterFailure(c, error, route, started, shared, rpcGiven),
      );
    };
  };
}
