import { OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../env.js";
import { ok } from "../answer/envelope.js";
import { documentedGet } from "../openapi/documented-route.js";

const ROOT_MESSAGE = "SNS resolution gateway: see /health, /resolve/:domain";

/** `/` and `/health`: no RPC, always 200. */
export function serviceRoutes(): OpenAPIHono<AppEnv> {
  const routes = new OpenAPIHono<AppEnv>();
  documentedGet(
    routes,
    {
      paths: ["/"],
      tag: "Service",
      summary: "What this service is",
      params: {},
      query: {},
      rpc: false,
      cache: "none",
      result: z.literal(ROOT_MESSAGE),
      errors: {},
      examples: { root: { summary: "Always", status: 200, body: { s: "ok", result: ROOT_MESSAGE } } },
    },
    (c) => ok(c, ROOT_MESSAGE),
  );
  documentedGet(
    routes,
    {
      paths: ["/health"],
      tag: "Service",
      summary: "Liveness",
      params: {},
      query: {},
      rpc: false,
      cache: "none",
      result: z.literal("ok"),
      errors: {},
      examples: { health: { summary: "Always", status: 200, body: { s: "ok", result: "ok" } } },
    },
    (c) => ok(c, "ok"),
  );
  return routes;
}
