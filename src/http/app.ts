import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context, ErrorHandler, Hono } from "hono";
import { cachePolicy } from "./answer/cache-policy.js";
import type { AppDeps } from "./deps.js";
import type { AppEnv } from "./env.js";
import { fail } from "./answer/envelope.js";
import { answerFailure } from "./answer/failure.js";
import { allowedMethodsOn } from "./answer/allowed-methods.js";
import { methodNotAllowedAnswer, methodNotAllowedOn } from "./answer/method-not-allowed.js";
import { UNMATCHED_ANSWERS, answersOf, declareAnswers } from "./openapi/route-answers.js";
import { ClientCallLimit } from "./clients/client-call-limit.js";
import { clientOf } from "./clients/client-key.js";
import { buildDocument } from "./openapi/document.js";
import { type Answerer, type RequestFrame, type RequestFrameOptions, requestFrame } from "./frame/frame.js";
import { routePatternOf } from "./answer/request-log.js";
import { apiReferenceRoutes } from "./routes/api-reference.js";
import { metricsRoute } from "./routes/metrics.js";
import { NO_TELEMETRY, UNMATCHED_ROUTE } from "../telemetry.js";
import { ROUTES } from "./routes/index.js";
import { LEGACY_ROUTES } from "./routes/legacy/index.js";
import { OPERATOR_PATHS } from "./routes/operator-paths.js";
import { plainNotFound } from "./answer/plain.js";
import { servesLegacy } from "./frame/legacy-host.js";

export function createApp(deps: AppDeps): Hono<AppEnv> {
  // OpenAPIHono: the routes mounted below bring their OpenAPI descriptions with them.
  const app = new OpenAPIHono<AppEnv>();

  // Failures of the frame itself (a route's are answered inside it): nothing route-specific is known.
  const answerError: ErrorHandler<AppEnv> = (error, c) =>
    answerFailure(deps.logger, c, error, routePatternOf(c), UNMATCHED_ANSWERS);

  // Read from the routes mounted below, on first use (a preflight, a 405).
  const allowedMethods = allowedMethodsOn(app.routes);

  // Around every answer (request id, cache policy, endpoint, rate limit, CORS, log, metrics).
  const frameOptions: RequestFrameOptions = {
    logger: deps.logger,
    telemetry: deps.telemetry ?? NO_TELEMETRY,
    requestHeader: deps.requestHeader,
    cachePolicyOf: cachePolicy({
      ttlSeconds: deps.cacheTtlSeconds,
      resolveTtlSeconds: Math.floor(deps.resolver.cacheTtlMs / 1000),
    }),
    endpoints: deps.endpoints,
    yieldToLoop: deps.yieldToLoop,
    allowedMethods,
    clientOf: clientOf(deps),
    ...(deps.callLimit && { callLimit: deps.callLimit }),
    ...(deps.edgeCache && { edgeCache: deps.edgeCache }),
    ...(deps.overrideRateLimit > 0 && { overrideLimit: new ClientCallLimit(deps.overrideRateLimit) }),
  };
  const frame = requestFrame(frameOptions);

  if (deps.metrics) mountFramed(app, metricsRoute(deps.metrics), frame);
  for (const routes of ROUTES) mountFramed(app, routes(deps), frame);
  let document: ReturnType<typeof buildDocument> | undefined;
  mountFramed(
    app,
    apiReferenceRoutes(deps, () => (document ??= buildDocument(app))),
    frame,
  );

  const methodNotAllowed = methodNotAllowedOn(allowedMethods);
  const notFound = (c: Context<AppEnv>) => {
    const allow = methodNotAllowed(c);
    return allow ? methodNotAllowedAnswer(c, allow) : fail(c, 404, "Not found");
  };
  const unmatched = frame(UNMATCHED_ROUTE, UNMATCHED_ANSWERS);
  app.notFound((c) => unmatched(c, notFound, noNext));
  // Failures of the frame itself; a route's are answered inside it.
  app.onError(answerError);

  const legacyHosts = deps.legacyHosts;
  if (legacyHosts) {
    // The legacy profile: a second app of the same frame, chosen by the request's Host before any routing.
    const legacy = legacyApp(deps, frameOptions, answerError);
    const v1 = app.fetch;
    app.fetch = (request, ...rest) =>
      servesLegacy(legacyHosts, request.headers.get("host")) && !isOperatorPath(request.url)
        ? legacy.fetch(request, ...rest)
        : v1(request, ...rest);
  }
  return app;
}

/** Whether `url` (a `Request`'s, absolute) is one of OPERATOR_PATHS, whatever its query. */
const isOperatorPath = (url: string): boolean => {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start < 0) return false;
  const end = url.indexOf("?", start);
  return OPERATOR_PATHS.has(end < 0 ? url.slice(start) : url.slice(start, end));
};

/**
 * The retired upstream hosts' API (routes/legacy/, docs/legacy.md) inside the same frame as v1 (request id,
 * CORS, rate limits, budgets, log line, metrics): a path no route serves, whatever its method, is their
 * plain-text 404.
 */
function legacyApp(deps: AppDeps, options: RequestFrameOptions, answerError: ErrorHandler<AppEnv>): Hono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>();
  // A preflight lists the methods the legacy routes take on its path.
  const frame = requestFrame({ ...options, allowedMethods: allowedMethodsOn(app.routes) });
  for (const routes of LEGACY_ROUTES) mountFramed(app, routes(deps), frame);
  const unmatched = frame(UNMATCHED_ROUTE, UNMATCHED_ANSWERS);
  app.notFound((c) => unmatched(c, plainNotFound, noNext));
  app.onError(answerError);
  return app;
}

/** The 404 and 405 are the last word: there is nothing after them. */
const noNext = async (): Promise<void> => {};

/**
 * Mounts `routes` (and their OpenAPI descriptions) at the root, each handler
 * inside the request frame. The frame wraps the handlers rather than being
 * middleware: a request that matches one handler then skips Hono's compose.
 * Each handler's frame knows its route pattern (the same at the root) for
 * the metrics and the log line, and what the route declared about its
 * answers (caching, wording): no route pattern overlaps another, so it is
 * the one Hono matched. A handler registered without a declaration answers
 * as `none` (never kept); test/architecture.test.ts fails on one.
 */
function mountFramed(app: OpenAPIHono<AppEnv>, routes: OpenAPIHono<AppEnv>, frame: RequestFrame): void {
  for (const route of routes.routes) {
    const handler = route.handler as Answerer;
    const declared = answersOf(handler);
    const framed = frame(route.method === "ALL" ? UNMATCHED_ROUTE : route.path, declared ?? UNMATCHED_ANSWERS);
    const wrapped: Answerer = (c, next) => framed(c, handler, next);
    route.handler = declared ? declareAnswers(wrapped, declared) : wrapped;
  }
  app.route("/", routes);
}
