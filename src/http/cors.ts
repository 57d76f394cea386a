import type { MiddlewareHandler } from "hono";

/** What upstream's `cors({ origin: "*" })` answers to a preflight (PROTOCOL §7.7). */
const ALLOW_METHODS = "GET,HEAD,PUT,POST,DELETE,PATCH";

/**
 * CORS for any origin. The header is set with `c.header` before the route
 * runs, so it is part of the response the route builds; setting it on
 * `c.res` first (as Hono's `cors()` does) makes Hono rebuild every response.
 */
export const corsAnyOrigin = (): MiddlewareHandler =>
  async function corsAnyOrigin(c, next) {
    if (c.req.method !== "OPTIONS") {
      c.header("Access-Control-Allow-Origin", "*");
      return next();
    }
    const headers = new Headers({ "Access-Control-Allow-Origin": "*", "Access-Control-Allow-Methods": ALLOW_METHODS });
    const requested = c.req.header("Access-Control-Request-Headers");
    if (requested) {
      headers.set("Access-Control-Allow-Headers", requested.split(",").map((name) => name.trim()).join(","));
      headers.append("Vary", "Access-Control-Request-Headers");
    }
    return new Response(null, { status: 204, statusText: "No Content", headers });
  };
