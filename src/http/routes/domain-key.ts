import { OpenAPIHono } from "@hono/zod-openapi";
import { deriveDomainKey } from "../../sns/derive.js";
import type { AppEnv } from "../env.js";
import { ok } from "../answer/envelope.js";
import { documentedGet } from "../openapi/documented-route.js";
import { domainNameParam } from "../openapi/request-schemas.js";
import { PublicKey } from "../openapi/response-schemas.js";

/** Name account of `label` or `sub.label`; no RPC. */
export function domainKeyRoute(): OpenAPIHono<AppEnv> {
  const routes = new OpenAPIHono<AppEnv>();
  documentedGet(
    routes,
    {
      paths: ["/domain-key/{domain}"],
      tag: "Names and wallets",
      summary: "The name account key of label or sub.label (no RPC)",
      params: { domain: domainNameParam },
      query: {},
      rpc: false,
      cache: "chain",
      result: PublicKey,
      errors: { 400: ["Invalid input"] },
      examples: {
        subdomain: {
          summary: "A subdomain",
          params: { domain: "dex.bonfida" },
          status: 200,
          body: { s: "ok", result: "HoFfFXqFHAC8RP3duuQNzag1ieUwJRBv1HtRNiWFq4Qu" },
        },
        "too-many-labels": {
          summary: "Three labels",
          params: { domain: "a.dex.bonfida" },
          status: 400,
          body: { s: "error", result: "Invalid input" },
        },
      },
    },
    (c, { params }) => ok(c, deriveDomainKey(params.domain)),
  );
  return routes;
}
