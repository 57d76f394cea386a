import { clientOf } from "../frame/client-key.js";
import { OpenAPIHono, z } from "@hono/zod-openapi";
import { listSubdomains } from "../../sns/queries/subdomains.js";
import type { AppDeps, AppEnv } from "../deps.js";
import { namesOverride } from "../frame/endpoint.js";
import { ok } from "../answer/envelope.js";
import { documentedGet } from "../openapi/documented-route.js";
import { parentNameParam } from "../openapi/request-schemas.js";

/** Sub labels of a one-label parent that have a reverse record. */
export function subdomainsRoute(deps: AppDeps): OpenAPIHono<AppEnv> {
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
      errors: { 400: ["Invalid input"], 422: ["Record is malformed"], 503: ["Service overloaded"] },
      examples: {
        parent: {
          summary: "A parent with one subdomain",
          params: { parent: "bonfida" },
          status: 200,
          body: { s: "ok", result: ["dex"] },
        },
        none: { summary: "No subdomains", params: { parent: "plain" }, status: 200, body: { s: "ok", result: [] } },
        "two-labels": {
          summary: "The parent must be one label",
          params: { parent: "dex.bonfida" },
          status: 400,
          body: { s: "error", result: "Invalid input" },
        },
      },
    },
    // With `rpc`, the override's server sizes the lists: such requests share a bulkhead.
    (c, { params }) => {
      const answer = async () => ok(c, await listSubdomains(c.get("rpc")(), params.parent));
      return namesOverride(c.req.query("rpc"))
        ? deps.bulkheads.overrideLists.run(1, answer, clientOf(deps)(c))
        : answer();
    },
  );
  return routes;
}
