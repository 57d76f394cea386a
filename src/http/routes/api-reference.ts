import { OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppDeps, AppEnv } from "../deps.js";
import { isDocsAssetName } from "../docs-assets.js";
import { fail } from "../answer/envelope.js";
import { moved } from "../answer/moved.js";
import { plain } from "../answer/plain.js";
import { DOCS_CSP, DOCS_HTML, DOCS_INIT_JS } from "../openapi/docs-page.js";
import { plainGet } from "../openapi/documented-route.js";
import { errorEnvelope } from "../openapi/response-schemas.js";

const notFound = {
  description: "No such asset",
  content: { "application/json": { schema: errorEnvelope(["Not found"]) } },
};

/**
 * `/openapi.json` (the document, built once from `document()`) and `/docs`
 * (Swagger UI, its files served by this gateway: no request leaves the origin).
 */
export function apiReferenceRoutes(deps: AppDeps, document: () => unknown): OpenAPIHono<AppEnv> {
  const routes = new OpenAPIHono<AppEnv>();

  routes.openAPIRegistry.registerPath({
    method: "get",
    path: "/openapi.json",
    operationId: "openapiJson",
    tags: ["Service"],
    summary: "This document (OpenAPI 3.1)",
    responses: {
      200: {
        description: "The OpenAPI document",
        content: { "application/json": { schema: z.object({}).passthrough() } },
      },
    },
  });
  plainGet(routes, "/openapi.json", "reference", (c) => plain(c, JSON.stringify(document()), "application/json"));

  routes.openAPIRegistry.registerPath({
    method: "get",
    path: "/docs",
    operationId: "docs",
    tags: ["Service"],
    summary: "Interactive reference of this document (Swagger UI, served by the gateway itself)",
    responses: { 200: { description: "An HTML page", content: { "text/html": { schema: z.string() } } } },
  });
  plainGet(routes, "/docs", "reference", (c) =>
    plain(c, DOCS_HTML, "text/html; charset=UTF-8", { headers: { "Content-Security-Policy": DOCS_CSP } }),
  );

  // The page names its files relative to itself (`docs/init.js`): served at `/docs/` they would resolve
  // under `/docs/docs/`. One address for the page, so `/docs/` sends the browser there, query kept.
  routes.openAPIRegistry.registerPath({
    method: "get",
    path: "/docs/",
    operationId: "docsSlash",
    tags: ["Service"],
    summary: "Moved permanently to /docs (the query kept)",
    responses: {
      301: {
        description: "Moved to /docs",
        headers: { Location: { description: "`/docs` and the request's query", schema: { type: "string" } } },
      },
    },
  });
  plainGet(routes, "/docs/", "reference", (c) => moved(c, `/docs${new URL(c.req.url).search}`));

  routes.openAPIRegistry.registerPath({
    method: "get",
    path: "/docs/{asset}",
    operationId: "docsAsset",
    tags: ["Service"],
    summary: "A file of the /docs page",
    request: {
      params: z.object({ asset: z.enum(["init.js", "swagger-ui-bundle.js", "swagger-ui.css"]) }),
    },
    responses: {
      200: {
        description: "The file",
        content: { "text/javascript": { schema: z.string() }, "text/css": { schema: z.string() } },
      },
      404: notFound,
    },
  });
  plainGet(routes, "/docs/:asset", "reference", async (c) => {
    const name = c.req.param("asset") ?? "";
    if (name === "init.js") return plain(c, DOCS_INIT_JS, "text/javascript; charset=utf-8");
    const asset = isDocsAssetName(name) ? await deps.docsAssets(name) : undefined;
    if (!asset) return fail(c, 404, "Not found");
    return plain(c, asset.body, asset.contentType);
  });

  return routes;
}
