import type { OpenAPIHono } from "@hono/zod-openapi";
import { SnsError } from "../../../sns/errors.js";
import { findPrimaryDomain } from "../../../sns/queries/primary-domain.js";
import { findPrimaryDomains } from "../../../sns/queries/primary-domains.js";
import { clientOf } from "../../clients/client-key.js";
import type { AppDeps } from "../../deps.js";
import type { AppEnv } from "../../env.js";
import { ok } from "../../answer/envelope.js";
import { InvalidInputError } from "../../errors.js";
import { MAX_BATCH_OWNERS } from "../../openapi/request-schemas.js";
import { legacyKey } from "./legacy-key.js";
import { INVALID_DOMAIN_INPUT, legacyGet, legacyRoutes } from "./legacy-route.js";

/**
 * `/favorite-domain/:owner` and `/multiple-favorite-domains/:owners`. A wallet without a favourite is
 * 200 `Invalid domain input` (`s: "error"`), as the retired hosts answered and their clients read as "no
 * name"; so is any other failure about the input or the chain. The list is split on `,`, items untrimmed,
 * at most 100 as on v1: one bad key, or a 101st, fails it all.
 */
export function legacyFavoriteRoutes(deps: AppDeps): OpenAPIHono<AppEnv> {
  const routes = legacyRoutes();
  legacyGet(routes, "/favorite-domain/:owner", { rpc: true, fixedFailure: INVALID_DOMAIN_INPUT }, async (c) => {
    const favorite = await findPrimaryDomain(c.get("rpc")(), legacyKey(c.req.param("owner")!));
    if (favorite === null) throw new SnsError("ACCOUNT_NOT_FOUND", "the wallet has no favourite domain");
    return ok(c, favorite);
  });
  legacyGet(routes, "/multiple-favorite-domains/:owners", { rpc: true, fixedFailure: INVALID_DOMAIN_INPUT }, (c) => {
    const items = c.req.param("owners")!.split(",");
    if (items.length > MAX_BATCH_OWNERS) throw new InvalidInputError(`more than ${MAX_BATCH_OWNERS} wallets`);
    const wallets = items.map(legacyKey);
    return deps.bulkheads.wallets.run(
      new Set(wallets).size,
      async () => ok(c, await findPrimaryDomains(c.get("rpc")(), wallets)),
      clientOf(deps)(c),
    );
  });
  return routes;
}
