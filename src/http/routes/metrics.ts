import { OpenAPIHono, z } from "@hono/zod-openapi";
import type { MetricsExporter } from "../../telemetry.js";
import { plain } from "../answer/plain.js";
import type { AppEnv } from "../deps.js";
import { plainGet } from "../openapi/documented-route.js";

/**
 * `GET /metrics`: Prometheus text, outside the envelope (`Cache-Control:
 * no-store` comes from its cache class, `none`). Mounted, and so documented, only
 * where the platform exports metrics.
 */
export function metricsRoute(metrics: MetricsExporter): OpenAPIHono<AppEnv> {
  const routes = new OpenAPIHono<AppEnv>();
  routes.openAPIRegistry.registerPath({
    method: "get",
    path: "/metrics",
    operationId: "metrics",
    tags: ["Service"],
    summary: "Prometheus metrics of this process (METRICS=off removes the route)",
    responses: {
      200: { description: "Prometheus text exposition format", content: { "text/plain": { schema: z.string() } } },
    },
  });
  plainGet(routes, "/metrics", "none", async (c) => plain(c, await metrics.render(), metrics.contentType));
  return routes;
}
