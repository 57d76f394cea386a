import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./deps.js";
import { hasAllHeaders } from "./envelope.js";

/** What upstream's `cors({ origin: "*" })` answers to a preflight (PROTOCOL §7.7). */
const ALLOW_METHODS = "GET,HEAD,PUT,POST,DELETE,PATCH";

/**
 * CORS for any origin. Envelope answers carry the header from the start
 * (envelope.ts); any other answer gets it once the route has answered. Hono
 * rebuilds every response when a header is put on `c.res` before the route
 * (as its `cors()` does) and builds a `Headers` per request when it is put on
 * the context with `c.header`; setting it on the finished answer does neither.
 */
export const corsAnyOrigin = (): MiddlewareHandler<AppEnv> =>
  async function corsAnyOrigin(c, next) {
    if (c.req.method !== "OPTIONS") {
      await next();
      if (!hasAllHeaders(c)) c.res.headers.set("Access-Control-Allow-Origin", "*");
      return;
    }
    const headers = new Headers({ "Access-Control-Allow-Origin": "*", "Access-Control-Allow-Methods": ALLOW_METHODS });
    const requested = c.req.header("Access-Control-Request-Headers");
    if (requested) {
      headers.set("Access-Control-Allow-Headers", requested.split(",").map((name) => name.trim()).join(","));
      headers.append("Vary", "Access-Control-Request-Headers");
    }
    return new Response(null, { status: 204, statusText: "No Content", headers });
  };
