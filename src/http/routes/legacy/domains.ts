import type { OpenAPIHono } from "@hono/zod-openapi";
import { listLegacyWalletDomains } from "../../../sns/queries/legacy-wallet-domains.js";
import { clientOf } from "../../clients/client-key.js";
import type { AppDeps } from "../../deps.js";
import type { AppEnv } from "../../env.js";
import { ok } from "../../answer/envelope.js";
import { legacyKey } from "./legacy-key.js";
import { INVALID_DOMAIN_INPUT, legacyGet, legacyRoutes } from "./legacy-route.js";

/**
 * `/domains/:owner` in the retired hosts' shape and order (`[{key, domain}]`, registry-owned names in scan
 * order with or without a reverse, then tokenized names with one); failures 200 `Invalid domain input`.
 */
export function legacyDomainsRoute(deps: AppDeps): OpenAPIHono<AppEnv> {
  const routes = legacyRoutes();
  legacyGet(routes, "/domains/:owner", { rpc: true, fixedFailure: INVALID_DOMAIN_INPUT }, (c) => {
    const wallet = legacyKey(c.req.param("owner")!);
    const viaOverride = c.get("viaOverride") === true;
    const answer = async () =>
      ok(c, await listLegacyWalletDomains(c.get("rpc")(), wallet, deps.tokenizedSource(c, viaOverride)));
    return viaOverride ? deps.bulkheads.overrideLists.run(1, answer, clientOf(deps)(c)) : answer();
  });
  return routes;
}
