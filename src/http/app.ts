import { OpenAPIHono } from "@hono/zod-openapi";
import type { Hono } from "hono";
import { cachePolicy } from "./cache-policy.js";
import type { AppDeps, AppEnv } from "./deps.js";
import { fail } from "./envelope.js";
import { errorAnswer } from "./error-table.js";
import { methodNotAllowedAnswer, methodNotAllowedOn } from "./method-not-allowed.js";
import { overrideRateLimit } from "./override-rate-limit.js";
import { buildDocument } from "./openapi/document.js";
import { requestFrame } from "./request-frame.js";
import { routePatternOf } from "./request-log.js";
import { apiReferenceRoutes } from "./routes/api-reference.js";
import { metricsRoute } from "./routes/metrics.js";
import { NO_TELEMETRY } from "../telemetry.js";
import { SnsError } from "../sns/errors.js";
import { ROUTES } from "./routes/index.js";

export function createApp(deps: AppDeps): Hono<AppEnv> {
  // OpenAPIHono: the routes mounted below bring their OpenAPI descriptions with them.
  const app = new OpenAPIHono<AppEnv>();

  // One middleware for every request (request id, cache policy, endpoint, rate limit, CORS, log, metrics).
  app.use(
    requestFrame({
      logger: deps.logger,
      telemetry: deps.telemetry ?? NO_TELEMETRY,
      requestHeader: deps.requestHeader,
      cachePolicyOf: cachePolicy({
        ttlSeconds: deps.cacheTtlSeconds,
        resolveTtlSeconds: Math.floor(deps.resolver.cacheTtlMs / 1000),
      }),
      endpoints: deps.endpoints,
      ...(deps.overrideRateLimit > 0
        ? { overrideLimit: overrideRateLimit(deps.overrideRateLimit, deps.clientIpHeader, deps.peerAddress) }
        : {}),
    }),
  );

  if (deps.metrics) app.route("/", metricsRoute(deps.metrics));
  for (const routes of ROUTES) app.route("/", routes(deps));
  let document: ReturnType<typeof buildDocument> | undefined;
  app.route("/", apiReferenceRoutes(deps, () => (document ??= buildDocument(app))));

  const methodNotAllowed = methodNotAllowedOn(app.routes);
  app.notFound((c) => (methodNotAllowed(c) ? methodNotAllowedAnswer(c) : fail(c, 404, "Not found")));

  app.onError((error, c) => {
    c.set("error", error);
    const answer = errorAnswer(error, c.req.path);
    // A 500 that is a chain-state answer (SnsError: a tokenized domain with no
    // holder, a PDA owner) is already in the request line with its code; the
    // full warn line, stack and all, is for failures of the gateway or its RPC.
    if (answer.status >= 500 && !(error instanceof SnsError)) {
      deps.logger.warn({ reqId: c.get("requestId"), route: routePatternOf(c), err: error }, "request failed");
    }
    return fail(c, answer.status, answer.message);
  });

  return app;
}
