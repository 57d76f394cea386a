import { type Context, Hono } from "hono";
import { parseFullDomain } from "../../sns/domain.js";
import type { AppDeps, AppEnv } from "../deps.js";
import { ok } from "../envelope.js";
import { hasRpcParam, rpcOverride } from "../rpc-param.js";

export const RESOLVE_PATHS = ["/resolve/:domain", "/safe-resolve/:domain"] as const;

/**
 * `/resolve/:domain` and `/safe-resolve/:domain`. They are the same route
 * while SRS-backed `.sol` resolution is disabled (as in the official SDK);
 * enabling SRS means giving `/safe-resolve` its own resolver call that
 * cross-checks both registries (SnsError SRS_MISMATCH → 409).
 */
export function resolveRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const handle = async (c: Context<AppEnv>) => {
    const domain = parseFullDomain(c.req.param("domain") ?? "");
    const endpoint = deps.endpoints.select(rpcOverride(c));
    const target = await deps.resolver.resolve(endpoint, domain);
    const ttl = Math.floor(deps.resolver.cacheTtlMs / 1000);
    if (ttl > 0 && !hasRpcParam(c)) c.set("cacheControl", `public, max-age=${ttl}`);
    return ok(c, target);
  };
  for (const path of RESOLVE_PATHS) routes.get(path, handle);
  return routes;
}
