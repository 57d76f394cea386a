import type { OpenAPIHono } from "@hono/zod-openapi";
import { base64 } from "@scure/base";
import { openLegacyName } from "../../../sns/queries/legacy-names.js";
import { readDomainBody } from "../../../sns/queries/legacy-reads.js";
import type { AppDeps } from "../../deps.js";
import type { AppEnv } from "../../env.js";
import { fail, ok } from "../../answer/envelope.js";
import { legacyGet, legacyRoutes } from "./legacy-route.js";

/**
 * `/domain-data/:domain`, which v1 retired: base64 of the name account's data after its header. No account
 * is 200 `Domain not found`; any other failure 200 `Error fetching domain data`.
 */
export function legacyDomainDataRoute(deps: AppDeps): OpenAPIHono<AppEnv> {
  const routes = legacyRoutes();
  legacyGet(
    routes,
    "/domain-data/:domain",
    { rpc: true, fixedFailure: { status: 200, message: "Error fetching domain data" } },
    async (c) => {
      const endpoint = c.get("rpc")();
      const domain = await openLegacyName(endpoint, c.req.param("domain")!, deps.resolver.srsResolution);
      const body = await readDomainBody(endpoint, domain.name);
      return body === null ? fail(c, 200, "Domain not found") : ok(c, base64.encode(body));
    },
  );
  return routes;
}
