import { OpenAPIHono, z } from "@hono/zod-openapi";
import { lookupReverse } from "../../sns/queries/reverse-lookup.js";
import type { AppEnv } from "../deps.js";
import { ok } from "../answer/envelope.js";
import { documentedGet } from "../openapi/documented-route.js";
import { pubkeyParam } from "../openapi/request-schemas.js";

/** The name a name account stands for; a subdomain gives only its own label, as upstream. */
export function reverseLookupRoute(): OpenAPIHono<AppEnv> {
  const routes = new OpenAPIHono<AppEnv>();
  documentedGet(
    routes,
    {
      paths: ["/reverse-lookup/{pubkey}"],
      tag: "Names and wallets",
      summary: "The name a name account stands for",
      description: "A subdomain's name account gives its own label only, as upstream.",
      params: { pubkey: pubkeyParam },
      query: {},
      rpc: true,
      cache: "chain",
      // Upstream names the missing account after this route.
      wording: { ACCOUNT_NOT_FOUND: "Account not found" },
      result: z.string(),
      errors: { 400: ["Invalid input"], 404: ["Account not found"], 422: ["Record is malformed"] },
      examples: {
        domain: {
          summary: "The name account of bonfida",
          params: { pubkey: "Crf8hzfthWGbGbLTVCiqRqV5MVnbpHB1L9KQMd6gsinb" },
          status: 200,
          body: { s: "ok", result: "bonfida" },
        },
        subdomain: {
          summary: "The name account of dex.bonfida",
          params: { pubkey: "HoFfFXqFHAC8RP3duuQNzag1ieUwJRBv1HtRNiWFq4Qu" },
          status: 200,
          body: { s: "ok", result: "dex" },
        },
        "account-not-found": {
          summary: "The key of an unregistered name",
          params: { pubkey: "CQLYCrqPVsa9DL73RBLiYJLCmSCJUJDBtyUwV2mA4She" },
          status: 404,
          body: { s: "error", result: "Account not found" },
        },
        "not-a-key": {
          summary: "Not base58",
          params: { pubkey: "not-a-key" },
          status: 400,
          body: { s: "error", result: "Invalid input" },
        },
      },
    },
    async (c, { params }) => ok(c, await lookupReverse(c.get("rpc")(), params.pubkey)),
  );
  return routes;
}
