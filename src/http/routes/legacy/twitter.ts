import type { OpenAPIHono } from "@hono/zod-openapi";
import { readTwitterHandle, readTwitterOwner } from "../../../sns/queries/legacy-reads.js";
import type { AppEnv } from "../../env.js";
import { ok } from "../../answer/envelope.js";
import { legacyKey } from "./legacy-key.js";
import { INVALID_INPUT, legacyGet, legacyRoutes } from "./legacy-route.js";

/**
 * The Twitter registry routes v1 retired: `/twitter/get-handle-by-key/:key` (the handle a wallet verified)
 * and `/twitter/get-key-by-handle/:handle` (the wallet a handle's registry names). Any failure, a wallet or
 * handle without a registry included, is 200 `Invalid input`.
 */
export function legacyTwitterRoutes(): OpenAPIHono<AppEnv> {
  const routes = legacyRoutes();
  legacyGet(routes, "/twitter/get-handle-by-key/:key", { rpc: true, fixedFailure: INVALID_INPUT }, async (c) =>
    ok(c, await readTwitterHandle(c.get("rpc")(), legacyKey(c.req.param("key")!))),
  );
  legacyGet(routes, "/twitter/get-key-by-handle/:handle", { rpc: true, fixedFailure: INVALID_INPUT }, async (c) =>
    ok(c, await readTwitterOwner(c.get("rpc")(), c.req.param("handle")!)),
  );
  return routes;
}
