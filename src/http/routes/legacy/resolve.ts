import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppDeps } from "../../deps.js";
import type { AppEnv } from "../../env.js";
import { ok } from "../../answer/envelope.js";
import { parseLegacyName } from "../../../sns/legacy-name.js";
import { DOMAIN_NOT_FOUND, legacyGet, legacyRoutes } from "./legacy-route.js";

/**
 * `/resolve/:domain`: the key that should receive funds, by the resolver (its `.sol` rule, SRS, cache and
 * budgets). Every failure about the name is 200 `Domain not found`, as the retired hosts answered; an RPC
 * that cannot answer is 502 (answer/failure.ts), never "not found".
 */
export function legacyResolveRoute(deps: AppDeps): OpenAPIHono<AppEnv> {
  const routes = legacyRoutes();
  const { resolver } = deps;
  legacyGet(routes, "/resolve/:domain", { rpc: true, fixedFailure: DOMAIN_NOT_FOUND }, async (c) => {
    const domain = parseLegacyName(c.req.param("domain")!);
    const key = await resolver.resolve(c.get("rpc")(), domain);
    // From the resolve cache: its entry's slot and Age, noted on the budget (RequestBudget.noteCachedRead).
    const budget = c.get("rpcBudget");
    if (budget !== undefined && budget.cachedReadAt !== Infinity) {
      c.set("answerCache", "hit");
      c.set("answerSlot", Math.min(budget.cachedSlot, budget.lowestSlot));
      c.set("answerAge", resolver.ageSeconds({ readAt: budget.cachedReadAt }));
    }
    return ok(c, key);
  });
  return routes;
}
