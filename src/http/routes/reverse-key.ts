import { OpenAPIHono } from "@hono/zod-openapi";
import { deriveReverseKeyOfName } from "../../sns/derive.js";
import type { AppEnv } from "../deps.js";
import { ok } from "../answer/envelope.js";
import { documentedGet } from "../openapi/documented-route.js";
import { domainNameParam } from "../openapi/request-schemas.js";
import { PublicKey } from "../openapi/response-schemas.js";

/** Reverse-lookup account of `label` or `sub.label` (a subdomain's is parented); no RPC. */
export function reverseKeyRoute(): OpenAPIHono<AppEnv> {
  const routes = new OpenAPIHono<AppEnv>();
  documentedGet(
    routes,
    {
      paths: ["/reverse-key/{domain}"],
      tag: "Names and wallets",
      summary: "The reverse-lookup account key of a name (no RPC)",
      description: "A subdomain's reverse account is parented to its parent's name account.",
      params: { domain: domainNameParam },
      query: {},
      rpc: false,
      cache: "chain",
      result: PublicKey,
      errors: { 400: ["Invalid input"] },
      examples: {
        domain: {
          summary: "A top-level name",
          params: { domain: "bonfida" },
          status: 200,
          body: { s: "ok", result: "DqgmWxe2PPrfy45Ja3UPyFGwcbRzkRuwXt3NyxjX8krg" },
        },
        subdomain: {
          summary: "A subdomain",
          params: { domain: "dex.bonfida" },
          status: 200,
          body: { s: "ok", result: "6tAdEpjsrzHuRqJW3XMXEV7DFyCWW4giW6mW4bgvhcYV" },
        },
        "empty-label": {
          summary: "An empty label",
          params: { domain: ".bonfida" },
          status: 400,
          body: { s: "error", result: "Invalid input" },
        },
      },
    },
    (c, { params }) => ok(c, deriveReverseKeyOfName(params.domain)),
  );
  return routes;
}
