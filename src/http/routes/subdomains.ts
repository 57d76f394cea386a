import { OpenAPIHono, z } from "@hono/zod-openapi";
import { listSubdomains } from "../../sns/queries/subdomains.js";
import type { AppEnv } from "../deps.js";
import { ok } from "../answer/envelope.js";
import { documentedGet } from "../openapi/documented-route.js";
import { parentNameParam } from "../openapi/request-schemas.js";

/** Sub labels of a one-label parent that have a reverse record. */
export function subdomainsRoute(): OpenAPIHono<AppEnv> {
  const routes = new OpenAPIHono<AppEnv>();
  documentedGet(
    routes,
    {
      paths: ["/subdomains/{parent}"],
      tag: "Names and wallets",
      summary: "The sub labels (with a reverse record) of a top-level name",
      params: { parent: parentNameParam },
      query: {},
      rpc: true,
      cache: "chain",
      result: z.array(z.string()),
      errors: { 400: ["Invalid input"], 422: ["Record is malformed"] },
      examples: {
        parent: { summary: "A parent with one subdomain", params: { parent: "bonfida" }, status: 200, body: { s: "ok", result: ["dex"] } },
        none: { summary: "No subdomains", params: { parent: "plain" }, status: 200, body: { s: "ok", result: [] } },
        "two-labels": {
          summary: "The parent must be one label",
          params: { parent: "dex.bonfida" },
          status: 400,
          body: { s: "error", result: "Invalid input" },
        },
      },
    },
    async (c, { params }) => ok(c, await listSubdomains(c.get("rpc")(), params.parent)),
  );
  return routes;
}
