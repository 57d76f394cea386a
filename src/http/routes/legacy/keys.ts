import type { OpenAPIHono } from "@hono/zod-openapi";
import { deriveDomainKey, deriveReverseKey } from "../../../sns/derive.js";
import { parseLegacyName } from "../../../sns/legacy-name.js";
import type { AppEnv } from "../../env.js";
import { fail, ok } from "../../answer/envelope.js";
import { INTERNAL_ERROR, INVALID_DOMAIN_INPUT, legacyGet, legacyRoutes } from "./legacy-route.js";

/**
 * `/domain-key/:domain` and `/reverse-key/:domain[?sub=true]`, derivations with no RPC: a `.sol` name is the
 * key of its `.sns` name here, as it always was (a key sends no funds). `/domain-key` refuses any `record`
 * (400, its schema never took a query value); `/reverse-key` gives a two-label name's reverse its parent only
 * with `sub=true`, as the retired hosts did.
 */
export function legacyKeyRoutes(): OpenAPIHono<AppEnv> {
  const routes = legacyRoutes();
  legacyGet(routes, "/domain-key/:domain", { rpc: false, fixedFailure: INTERNAL_ERROR }, (c) => {
    if (c.req.query("record") !== undefined) return fail(c, 400, "Invalid input");
    return ok(c, deriveDomainKey(parseLegacyName(c.req.param("domain")!).name));
  });
  legacyGet(routes, "/reverse-key/:domain", { rpc: false, fixedFailure: INVALID_DOMAIN_INPUT }, (c) => {
    const { name, labels } = parseLegacyName(c.req.param("domain")!);
    const parent = c.req.query("sub") === "true" && labels.length === 2 ? deriveDomainKey(labels[1]!) : undefined;
    return ok(c, deriveReverseKey(deriveDomainKey(name), parent));
  });
  return routes;
}
