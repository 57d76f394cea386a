import { OpenAPIHono } from "@hono/zod-openapi";
import { findPrimaryDomain } from "../../sns/queries/primary-domain.js";
import type { AppEnv } from "../deps.js";
import { ok } from "../answer/envelope.js";
import { documentedGet } from "../openapi/documented-route.js";
import { pubkeyParam } from "../openapi/request-schemas.js";
import { PrimaryDomain } from "../openapi/response-schemas.js";

/** `{domain, reverse, stale}`, or null when the wallet never chose a primary domain. */
export function primaryDomainRoute(): OpenAPIHono<AppEnv> {
  const routes = new OpenAPIHono<AppEnv>();
  documentedGet(
    routes,
    {
      paths: ["/primary-domain/{owner}", "/favorite-domain/{owner}"],
      tag: "Names and wallets",
      summary: "The primary (favorite) domain of a wallet",
      description: "`null` when the wallet has no primary account; `stale` when the wallet no longer owns the domain.",
      params: { owner: pubkeyParam },
      query: {},
      rpc: true,
      cache: "chain",
      result: PrimaryDomain.nullable(),
      errors: { 400: ["Invalid input"], 404: ["Resource not found"], 422: ["Record is malformed"] },
      examples: {
        primary: {
          summary: "A wallet's primary domain",
          params: { owner: "C8jwKc5ieVM1yzMqMsW7ShJyTnN2GbLaf8XV2s4hthRS" },
          status: 200,
          body: {
            s: "ok",
            result: { domain: "6hKQjPcoGMGdThQSBbNV3FmfnpeH4RvCGS1Ab2uTpfJP", reverse: "plain", stale: false },
          },
        },
        stale: {
          summary: "A subdomain the wallet no longer owns",
          params: { owner: "F56ChgeNWwCq9bDW5RE6UH8CXJ3se3mi8mSpcAvECsww" },
          status: 200,
          body: {
            s: "ok",
            result: { domain: "HoFfFXqFHAC8RP3duuQNzag1ieUwJRBv1HtRNiWFq4Qu", reverse: "dex.bonfida", stale: true },
          },
        },
        none: {
          summary: "No primary domain",
          params: { owner: "3A1Eo6PzezmtKb8vPy8wxzam68jPc1BudnvedL6z2k7x" },
          status: 200,
          body: { s: "ok", result: null },
        },
        "not-a-key": {
          summary: "Not a public key",
          params: { owner: "C8jwKc5ieVM1yzMqMsW7ShJyTnN2GbLaf8XV2s4hthRS " },
          status: 400,
          body: { s: "error", result: "Invalid input" },
        },
      },
    },
    async (c, { params }) => ok(c, await findPrimaryDomain(c.get("rpc")(), params.owner)),
  );
  return routes;
}
