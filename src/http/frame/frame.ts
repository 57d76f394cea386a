import type { Context, Next } from "hono";
import type { Logger } from "../../logger.js";
import type { EndpointSelector } from "../../rpc/endpoints.js";
import type { Telemetry } from "../../telemetry.js";
import { NO_STORE } from "../answer/cache-control.js";
import type { CacheClass } from "../openapi/route-answers.js";
import { answerFailure } from "../answer/failure.js";
import { type EdgeCache, edgeCached, keptAtEdge } from "../answer/edge-cache.js";
import { type AnswerSinks, finishAnswer } from "../answer/finish.js";
import type { RouteAnswers } from "../openapi/route-answers.js";
import type { AppEnv } from "../env.js";
import { namesOverride, offerEndpoint } from "./endpoint.js";
import { preflightAnswer } from "../answer/preflight.js";
import { requestIdFor } from "../answer/request-id.js";
import type { YieldToLoop } from "../../rpc/request-view.js";
import { RpcBudgetError } from "../../rpc/request-budget.js";
import { RequestTrace } from "../../rpc/request-trace.js";
import type { ClientCallLimit } from "../clients/client-call-limit.js";
import { admitClient } from "./client-admission.js";

/** What answers a request inside the frame: a route's handler, or the app's 404/405. */
export type Answerer = (c: Context<AppEnv>, next: Next) => Response | void | Promise<Response | void>;

/** Runs `answer` for a request with everything around it (see `requestFrame`): synchronously when `answer` is. */
export type RouteFrame = (c: Context<AppEnv>, answer: Answerer, next: Next) => Response | Promise<Response>;

/**
 * The frame of one route, by the pattern its handlers were registered under
 * (routes do not overlap, so it is the one Hono matched) and what the route
 * declares about its answers, or UNMATCHED_ROUTE and UNMATCHED_ANSWERS for
 * the 404/405 frame.
 */
export type RequestFrame = (route: string, answers: RouteAnswers) => RouteFrame;

export interface RequestFrameOptions {
  readonly logger: Logger;
  readonly telemetry: Telemetry;
  /** A request header by its lower-case name (AppDeps.requestHeader). */
  requestHeader(c: Context, name: string): string | undefined;
  /** The Cache-Control a success on a route of a cache class earns (answer/cache-policy.ts). */
  cachePolicyOf(cache: CacheClass): string;
  readonly endpoints: EndpointSelector;
  /** Counts what requests on `RPC_URL` cost their client (clients/client-call-limit.ts); absent: unlimited. */
  readonly callLimit?: ClientCallLimit;
  /** Counts what requests naming an `rpc` override cost their client (clients/client-call-limit.ts); absent: none. */
  readonly overrideLimit?: ClientCallLimit;
  /** The client a request is counted for (clients/client-key.ts). */
  clientOf(c: Context<AppEnv>): string;
  /** Lets the event loop serve others between slices of a request's work over RPC-supplied lists. */
  readonly yieldToLoop: YieldToLoop;
  /** The methods the app takes on a path (answer/allowed-methods.ts), for a preflight to advertise. */
  allowedMethods(path: string): readonly string[];
  /** Where `resolve` answers are shared by a platform (Workers: the Cache API; answer/edge-cache.ts); absent: none. */
  readonly edgeCache?: EdgeCache;
}

/**
 * `answered`, or the request's budget error once its deadline has passed:
 * work still under way (an exchange, a slice of a list) stops at its next
 * look at the budget, but the client has its answer by the deadline.
 */
function withinDeadline(
  c: Context<AppEnv>,
  answered: Response | void | Promise<Response | void>,
): Promise<Response | void> | Response | void {
  const budget = c.get("rpcBudget");
  if (!(answered instanceof Promise) || !budget) return answered;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(
        budget.exhausted ?? new RpcBudgetError("deadline", `request deadline of ${budget.limits.deadlineMs} ms passed`),
      );
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
 * Whether the request asks how its answer was decided: `trace=1` exactly
 * (its first value). Any other value is ignored, as every query parameter a
 * route does not read is: the gateway answers as upstream, which knows no
 * `trace`. The query is parsed only when its text holds `trace=` (or a
 * percent-escape that could spell it).
 */
function traceAsked(c: Context<AppEnv>): boolean {
  const url = c.req.url;
  const at = url.indexOf("?");
  if (at === -1) return false;
  if (url.indexOf("trace=", at) === -1 && url.indexOf("%", at) === -1) return false;
  return c.req.query("trace") === "1";
}

/**
 * What every request needs decided before its route, and done once it is
 * answered, around the one handler that answers it. Each step keeps its
 * rules in its own module; this only calls them, in this order:
 *
 * 1. answer/request-id.ts: the request id (echoed in `X-Request-Id`, errors included);
 * 2. answer/preflight.ts: a CORS preflight (any `OPTIONS`) is answered at once, with the path's methods;
 * 3. answer/cache-policy.ts: the Cache-Control a success earns, from the route's declaration;
 * 4. endpoint.ts: the endpoint routes ask for (`rpc` override or RPC_URL), counted by rpc/request-view.ts;
 * 5. client-admission.ts: on routes that read the chain, what requests cost is counted per
 *    client (clients/), those naming an override apart from the others (one naming `RPC_URL`
 *    itself is counted as a request without `rpc`: it is one); an override's answer comes by its
 *    budget's deadline (`withinDeadline`);
 * 6. answer/edge-cache.ts: where a platform shares `resolve` answers (Workers), a GET without
 *    an override is answered from there when it holds one, as this request's own answer;
 * then the handler, whose failures answer/failure.ts answers, and answer/finish.ts.
 *
 * The query is read once, for all of them, and for the route: whether the
 * request names an override is the context's `viaOverride` (env.ts). The app wraps every route handler
 * (and its 404) in the frame rather than registering it as middleware: a
 * request matching a single handler skips Hono's compose, so an answer costs
 * no dispatch frame and no promise per step.
 */
export function requestFrame(options: RequestFrameOptions): RequestFrame {
  const {
    logger,
    telemetry,
    requestHeader,
    cachePolicyOf,
    endpoints,
    yieldToLoop,
    callLimit,
    overrideLimit,
    clientOf,
    allowedMethods,
  } = options;
  const sinks: AnswerSinks = { logger, telemetry };

  // A thrown failure is answered by the pipeline, as Hono's compose would hand it to the error handler.
  const fail = (c: Context<AppEnv>, error: unknown, route: string, answers: RouteAnswers): void => {
    if (!(error instanceof Error)) throw error;
    c.error = error;
    c.res = answerFailure(logger, c, error, route, answers);
  };

  // As Hono's compose would: a returned answer is the answer.
  const settle = (c: Context<AppEnv>, answered: Response | void): void => {
    if (answered && !c.finalized) c.res = answered;
  };

  const finish = (c: Context<AppEnv>, route: string, started: number, rpcGiven: boolean): Response =>
    finishAnswer(sinks, c, route, started, rpcGiven);

  return (route, answers) => {
    const routePolicy = cachePolicyOf(answers.cache);
    const edge = answers.cache === "resolve" ? options.edgeCache : undefined;

    return function requestFrame(c, answer, next) {
      const started = performance.now();
      const requestId = requestIdFor(requestHeader(c, "x-request-id"));
      c.set("requestId", requestId);
      telemetry.httpRequestStarted();
      const rpcParam = c.req.query("rpc");
      const rpcGiven = rpcParam !== undefined;
      if (c.req.method === "OPTIONS") {
        c.res = preflightAnswer(requestId, c.req.header("Access-Control-Request-Headers"), allowedMethods(c.req.path));
        return finish(c, route, started, rpcGiven);
      }
      const overridden = namesOverride(rpcParam);
      // Routes ask the context, never the query: absent on the common path, which then sets nothing.
      if (overridden) c.set("viaOverride", true);
      const trace = traceAsked(c) ? new RequestTrace() : undefined;
      if (trace) c.set("trace", trace);
      // A traced answer is this request's alone: no shared cache keeps it.
      c.set("sharedCacheControl", overridden || trace ? NO_STORE : routePolicy);
      offerEndpoint(c, endpoints, rpcParam, yieldToLoop, trace);
      if (answers.rpc) {
        const limit = overridden && !endpoints.namesConfigured(rpcParam!) ? overrideLimit : callLimit;
        // The limiter's 429 is the answer, the route never runs.
        const refused = limit && admitClient(c, limit, clientOf(c));
        if (refused) {
          settle(c, refused);
          return finish(c, route, started, rpcGiven);
        }
      }
      if (overridden && answers.rpc) {
        // An override's answer comes by its budget's deadline, whatever its endpoint does (see withinDeadline).
        const answering = async (): Promise<Response> => {
          let answered: Response | void;
          try {
            answered = await withinDeadline(c, answer(c, next));
          } catch (error) {
            fail(c, error, route, answers);
            return finish(c, route, started, rpcGiven);
          }
          settle(c, answered);
          return finish(c, route, started, rpcGiven);
        };
        return answering();
      }
      // A `resolve` answer on Workers: from the edge cache when it holds one, else the route's, then kept there.
      if (edge !== undefined && !overridden && !trace && c.req.method === "GET") {
        return edgeCached(edge, c).then((hit) => {
          if (hit) {
            c.res = hit;
            return finish(c, route, started, rpcGiven);
          }
          const answered = respond(c, answer, next, started, rpcGiven);
          if (!(answered instanceof Promise)) return keptAtEdge(edge, c, answered);
          return answered.then((res) => keptAtEdge(edge, c, res));
        });
      }
      return respond(c, answer, next, started, rpcGiven);
    };

    /** The route's answer: one at hand is finished at once, a promised one in the one step that settles it. */
    function respond(
      c: Context<AppEnv>,
      answer: Answerer,
      next: Next,
      started: number,
      rpcGiven: boolean,
    ): Response | Promise<Response> {
      let answered: Response | void | Promise<Response | void>;
      try {
        answered = answer(c, next);
      } catch (error) {
        fail(c, error, route, answers);
        return finish(c, route, started, rpcGiven);
      }
      if (!(answered instanceof Promise)) {
        settle(c, answered);
        return finish(c, route, started, rpcGiven);
      }
      return answered.then(
        (res) => {
          settle(c, res);
          return finish(c, route, started, rpcGiven);
        },
        (error: unknown) => {
          fail(c, error, route, answers);
          return finish(c, route, started, rpcGiven);
        },
      );
    }
  };
}
