import type { OpenAPIHono } from "@hono/zod-openapi";
import { openLegacyName } from "../../../sns/queries/legacy-names.js";
import { readParentlessReverse } from "../../../sns/queries/legacy-reads.js";
import { listSubdomains } from "../../../sns/queries/subdomains.js";
import { clientOf } from "../../clients/client-key.js";
import type { AppDeps } from "../../deps.js";
import type { AppEnv } from "../../env.js";
import { ok } from "../../answer/envelope.js";
import { legacyKey } from "./legacy-key.js";
import { INVALID_INPUT, legacyGet, legacyRoutes } from "./legacy-route.js";

/**
 * `/reverse-lookup/:pubkey` (the parentless reverse of a name account: a top-level name's, its text as stored,
 * a leading NUL kept; a subdomain's key finds none) and `/subdomains/:parent` (sub labels). Any failure is
 * 200 `Invalid input`.
 */
export function legacyReverseRoutes(deps: AppDeps): OpenAPIHono<AppEnv> {
  const routes = legacyRoutes();
  legacyGet(routes, "/reverse-lookup/:pubkey", { rpc: true, fixedFailure: INVALID_INPUT }, async (c) =>
    ok(c, await readParentlessReverse(c.get("rpc")(), legacyKey(c.req.param("pubkey")!))),
  );
  legacyGet(routes, "/subdomains/:parent", { rpc: true, fixedFailure: INVALID_INPUT }, (c) => {
    const answer = async () => {
      const endpoint = c.get("rpc")();
      const parent = await openLegacyName(endpoint, c.req.param("parent")!, deps.resolver.srsResolution);
      return ok(c, await listSubdomains(endpoint, parent.name));
    };
    return c.get("viaOverride") === true ? deps.bulkheads.overrideLists.run(1, answer, clientOf(deps)(c)) : answer();
  });
  return routes;
}
