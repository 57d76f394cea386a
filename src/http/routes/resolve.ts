import { type Context, Hono } from "hono";
import { parseFullDomain } from "../../sns/domain.js";
import type { AppDeps, AppEnv } from "../deps.js";
import { ok } from "../envelope.js";

/**
 * `/resolve/:domain` and `/safe-resolve/:domain`. They are the same route
 * while SRS-backed `.sol` resolution is disabled (as in the official SDK);
 * enabling SRS means giving `/safe-resolve` its own resolver call that
 * cross-checks both registries (SnsError SRS_MISMATCH → 409).
 */
export function resolveRoutes(deps: AppDeps): Hono<AppEnv> {
  const handle = async (c: Context<AppEnv>) => {
    const domain = parseFullDomain(c.req.param("domain") ?? "");
    return ok(c, await deps.resolver.resolve(c.var.rpc(), domain));
  };
  return new Hono<AppEnv>().get("/resolve/:domain", handle).get("/safe-resolve/:domain", handle);
}
