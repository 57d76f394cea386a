import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env.js";
import { plain } from "../../answer/plain.js";
import { INTERNAL_ERROR, legacyGet, legacyRoutes } from "./legacy-route.js";

/** `GET /`: the text the retired hosts answered. */
export function legacyServiceRoutes(): OpenAPIHono<AppEnv> {
  const routes = legacyRoutes();
  legacyGet(routes, "/", { rpc: false, fixedFailure: INTERNAL_ERROR }, (c) =>
    plain(c, "Visit https://github.com/Bonfida/sns-sdk", "text/plain; charset=UTF-8"),
  );
  return routes;
}
