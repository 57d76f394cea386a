import type { Context } from "hono";
import { matchedRoutes } from "hono/route";
import { UNMATCHED_ROUTE } from "../../telemetry.js";
import type { AppEnv } from "../env.js";

/**
 * The route pattern a request matched (`/resolve/:domain`), from Hono's
 * match result: the last matched handler route, middleware aside. Requests
 * no route matched (404, 405, CORS preflights) share one label, so neither
 * metrics nor logs ever carry a raw path.
 */
export function routePatternOf(c: Context<AppEnv>): string {
  const routes = matchedRoutes(c);
  for (let i = routes.length - 1; i >= 0; i--) {
    const route = routes[i]!;
    if (route.method !== "ALL") return route.path;
  }
  return UNMATCHED_ROUTE;
}
