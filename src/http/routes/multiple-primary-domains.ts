import { clientOf } from "../frame/client-key.js";
import { OpenAPIHono, z } from "@hono/zod-openapi";
import { findPrimaryDomains } from "../../sns/queries/primary-domains.js";
import type { AppDeps, AppEnv } from "../deps.js";
import { ok } from "../answer/envelope.js";
import { documentedGet } from "../openapi/documented-route.js";
import { pubkeysParam } from "../openapi/request-schemas.js";

/** One primary name (or null) per wallet of a 1–100 comma-separated list, in its order. */
export function multiplePrimaryDomainsRoute(deps: AppDeps): OpenAPIHono<AppEnv> {
  const routes = new OpenAPIHono<AppEnv>();
  documentedGet(
    routes,
    {
      paths: ["/multiple-primary-domains/{owners}", "/multiple-favorite-domains/{owners}"],
      tag: "Names and wallets",
      summary: "The primary domain names of 1 to 100 wallets",
      description:
        "One item per wallet, in their order: the TLD-less name, or `null` when that wallet has no primary, " +
        "no longer holds it, its reverse is missing or one of its accounts cannot be decoded.",
      params: { owners: pubkeysParam },
      query: {},
      rpc: true,
      cache: "chain",
      result: z.array(z.string().nullable()),
      errors: { 400: ["Invalid input"], 503: ["Service overloaded"] },
      examples: {
        wallets: {
          summary: "Five wallets, two without a primary domain",
          params: {
            owners:
              "6S1UMycw7pTkqgujrvXZD9rCfje2uSmWgYoRfEREYWxE,C8jwKc5ieVM1yzMqMsW7ShJyTnN2GbLaf8XV2s4hthRS,Hbn1ZdzThM2Hhd4V79imRRHFBsnjzskG6j9GZto8fSs7,3RYfGou1AKd3KpqBxSbj9ebgEkhPvZB76TV5u15gs6tT,3A1Eo6PzezmtKb8vPy8wxzam68jPc1BudnvedL6z2k7x",
          },
          status: 200,
          body: { s: "ok", result: ["v1-sol", "plain", "bonfida", null, null] },
        },
        "bad-key": {
          summary: "One item is not a public key",
          params: { owners: "6S1UMycw7pTkqgujrvXZD9rCfje2uSmWgYoRfEREYWxE,bonfida" },
          status: 400,
          body: { s: "error", result: "Invalid input" },
        },
      },
    },
    // Bulkhead: wallets looked up at once, whatever the number of requests asking; each client its fair share.
    (c, { params }) =>
      deps.bulkheads.wallets.run(
        params.owners.length,
        async () => ok(c, await findPrimaryDomains(c.get("rpc")(), params.owners)),
        clientOf(deps)(c),
      ),
  );
  return routes;
}
