import { OpenAPIHono } from "@hono/zod-openapi";
import type { Hono } from "hono";
import { methodNotAllowed } from "hono/method-not-allowed";
import { cachePolicy } from "./cache-policy.js";
import { corsAnyOrigin } from "./cors.js";
import type { AppDeps, AppEnv } from "./deps.js";
import { fail, setContextHeader } from "./envelope.js";
import { errorAnswer } from "./error-table.js";
import { overrideRateLimit } from "./override-rate-limit.js";
import { buildDocument } from "./openapi/document.js";
import { observeRequests, routePatternOf } from "./request-log.js";
import { apiReferenceRoutes } from "./routes/api-reference.js";
import { metricsRoute } from "./routes/metrics.js";
import { NO_TELEMETRY } from "../telemetry.js";
import { SnsError } from "../sns/errors.js";
import { ROUTES } from "./routes/index.js";
import { selectEndpoint } from "./rpc-param.js";

export function createApp(deps: AppDeps): Hono<AppEnv> {
  // OpenAPIHono: the routes mounted below bring their OpenAPI descriptions with them.
  const app = new OpenAPIHono<AppEnv>();

  app.use(observeRequests(deps.logger, deps.telemetry ?? NO_TELEMETRY, deps.requestHeader));

  app.use(corsAnyOrigin());

  app.use(
    cachePolicy({ ttlSeconds: deps.cacheTtlSeconds, resolveTtlSeconds: Math.floor(deps.resolver.cacheTtlMs / 1000) }),
  );

  // Any method but GET, HEAD and OPTIONS on a known path, however exotic (QUERY, TRACE, PROPFIND…).
  app.use(
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c) => {
        // The 404 this replaces is already the context's answer: Hono builds this one from it.
        setContextHeader(c, "Allow", "GET, HEAD, OPTIONS");
        return fail(c, 405, "Method not allowed");
      },
    }),
  );

  if (deps.overrideRateLimit > 0) app.use(overrideRateLimit(deps.overrideRateLimit, deps.clientIpHeader, deps.peerAddress));

  app.use(selectEndpoint(deps.endpoints));

  if (deps.metrics) app.route("/", metricsRoute(deps.metrics));
  for (const routes of ROUTES) app.route("/", routes(deps));
  let document: ReturnType<typeof buildDocument> | undefined;
  app.route("/", apiReferenceRoutes(deps, () => (document ??= buildDocument(app))));

  app.notFound((c) => fail(c, 404, "Not found"));

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
