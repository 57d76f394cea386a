import { Hono } from "hono";
import { cors } from "hono/cors";
import type { AppDeps, AppEnv } from "./deps.js";
import { fail, ok } from "./envelope.js";
import { errorAnswer, errorCode } from "./error-table.js";
import { DEPRECATED_PATHS, deprecatedRoutes } from "./routes/deprecated.js";
import { RECORD_PATHS, recordRoutes } from "./routes/records.js";
import { RESOLVE_PATHS, resolveRoutes } from "./routes/resolve.js";

/** Paths served with GET; any other method on them is 405 in the envelope. */
const GET_PATHS = ["/", "/health", ...RESOLVE_PATHS, ...DEPRECATED_PATHS, ...RECORD_PATHS];

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

  app.use(cors({ origin: "*" }));

  app.use(async (c, next) => {
    await next();
    if (c.req.method === "OPTIONS") return;
    const chosen = c.res.status < 400 ? c.get("cacheControl") : undefined;
    c.res.headers.set("Cache-Control", chosen ?? "no-store");
  });

  app.get("/", (c) => ok(c, "SNS resolution gateway: see /health, /resolve/:domain"));
  app.get("/health", (c) => ok(c, "ok"));
  app.route("/", resolveRoutes(deps));
  app.route("/", deprecatedRoutes());
  app.route("/", recordRoutes(deps));

  for (const path of GET_PATHS) {
    app.on(["POST", "PUT", "PATCH", "DELETE"], path, (c) => {
      c.header("Allow", "GET, HEAD, OPTIONS");
      return fail(c, 405, "Method not allowed");
    });
  }

  app.notFound((c) => fail(c, 404, "Not found"));

  app.onError((error, c) => {
    c.set("error", error);
    const answer = errorAnswer(error);
    if (answer.status >= 500) deps.logger.warn({ err: error, path: c.req.path }, "request failed");
    return fail(c, answer.status, answer.message);
  });

  return app;
}
