import { Hono } from "hono";
import { methodNotAllowed } from "hono/method-not-allowed";
import { corsAnyOrigin } from "./cors.js";
import type { AppDeps, AppEnv } from "./deps.js";
import { fail, ok } from "./envelope.js";
import { errorAnswer, errorCode } from "./error-table.js";
import { overrideRateLimit } from "./override-rate-limit.js";
import { deprecatedRoutes } from "./routes/deprecated.js";
import { recordRoutes } from "./routes/records.js";
import { resolveRoutes } from "./routes/resolve.js";

export function createApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.use(async (c, next) => {
    const started = performance.now();
    await next();
    const failure = c.get("error");
    deps.logger.info(
      {
        method: c.req.method,
        path: c.req.path,
        // The override URL may carry credentials: log that one was given, not what it was.
        rpcOverride: c.req.query("rpc") !== undefined,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 100) / 100,
        ...(failure === undefined ? {} : { error: errorCode(failure) }),
      },
      "request",
    );
  });

  app.use(corsAnyOrigin());

  app.use(async (c, next) => {
    await next();
    if (c.req.method === "OPTIONS") return;
    const chosen = c.res.status < 400 ? c.get("cacheControl") : undefined;
    c.res.headers.set("Cache-Control", chosen ?? "no-store");
  });

  // Any method but GET, HEAD and OPTIONS on a known path, however exotic (QUERY, TRACE, PROPFIND…).
  app.use(
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c) => {
        c.header("Allow", "GET, HEAD, OPTIONS");
        return fail(c, 405, "Method not allowed");
      },
    }),
  );

  if (deps.overrideRateLimit > 0) app.use(overrideRateLimit(deps.overrideRateLimit, deps.clientIpHeader));

  app.get("/", (c) => ok(c, "SNS resolution gateway: see /health, /resolve/:domain"));
  app.get("/health", (c) => ok(c, "ok"));
  app.route("/", resolveRoutes(deps));
  app.route("/", deprecatedRoutes());
  app.route("/", recordRoutes(deps));

  app.notFound((c) => fail(c, 404, "Not found"));

  app.onError((error, c) => {
    c.set("error", error);
    const answer = errorAnswer(error);
    if (answer.status >= 500) deps.logger.warn({ err: error, path: c.req.path }, "request failed");
    return fail(c, answer.status, answer.message);
  });

  return app;
}
