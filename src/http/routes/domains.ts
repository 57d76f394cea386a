import { clientOf } from "../frame/client-key.js";
import { OpenAPIHono, z } from "@hono/zod-openapi";
import { listWalletDomains } from "../../sns/queries/wallet-domains.js";
import type { AppDeps, AppEnv } from "../deps.js";
import { namesOverride } from "../frame/endpoint.js";
import { ok } from "../answer/envelope.js";
import { documentedGet } from "../openapi/documented-route.js";
import { pubkeyParam } from "../openapi/request-schemas.js";
import { WalletDomain } from "../openapi/response-schemas.js";

/** `[{domain, key}]`: registry-owned top-level domains, then tokenized domains the wallet holds. */
export function domainsRoute(deps: AppDeps): OpenAPIHono<AppEnv> {
  const routes = new OpenAPIHono<AppEnv>();
  documentedGet(
    routes,
    {
      paths: ["/domains/{owner}"],
      tag: "Names and wallets",
      summary: "The domains of a wallet",
      description:
        "Registry-owned top-level domains with a reverse record, then tokenized domains the wallet holds; " +
        "each group sorted by name account key.",
      params: { owner: pubkeyParam },
      query: {},
      rpc: true,
      cache: "chain",
      result: z.array(WalletDomain),
      errors: { 400: ["Invalid input"], 422: ["Record is malformed"], 503: ["Service overloaded"] },
      examples: {
        tokenized: {
          summary: "A wallet holding one tokenized domain",
          params: { owner: "Hbn1ZdzThM2Hhd4V79imRRHFBsnjzskG6j9GZto8fSs7" },
          status: 200,
          body: { s: "ok", result: [{ domain: "bonfida", key: "Crf8hzfthWGbGbLTVCiqRqV5MVnbpHB1L9KQMd6gsinb" }] },
        },
        none: {
          summary: "A wallet without domains",
          params: { owner: "3A1Eo6PzezmtKb8vPy8wxzam68jPc1BudnvedL6z2k7x" },
          status: 200,
          body: { s: "ok", result: [] },
        },
        "not-a-key": {
          summary: "Not a public key",
          params: { owner: "bonfida" },
          status: 400,
          body: { s: "error", result: "Invalid input" },
        },
      },
    },
    // With `rpc`, the override's server sizes the lists: such requests share a bulkhead.
    (c, { params }) => {
      const viaOverride = namesOverride(c.req.query("rpc"));
      const answer = async () => {
        const endpoint = c.get("rpc")();
        return ok(c, await listWalletDomains(endpoint, params.owner, deps.tokenizedSource(c, viaOverride)));
      };
      return viaOverride ? deps.bulkheads.overrideLists.run(1, answer, clientOf(deps)(c)) : answer();
    },
  );
  return routes;
}
