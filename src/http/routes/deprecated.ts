import { OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../deps.js";
import { fail } from "../answer/envelope.js";
import { documentedGet } from "../openapi/documented-route.js";

const DEPRECATED = {
  "/record/{domain}/{record}": "This endpoint is deprecated. Use /record-v2/:domain/:record instead.",
  "/record-key/{domain}/{record}": "This endpoint is deprecated. Use /record-key-v2/:domain/:record instead.",
} as const;

// Not validated: any value gets the same answer.
const anyText = z.string().openapi({ description: "Not checked." });

/** Kept for compatibility: always 400 pointing to the replacement, no RPC, no validation. */
export function deprecatedRoutes(): OpenAPIHono<AppEnv> {
  const routes = new OpenAPIHono<AppEnv>();
  for (const [path, message] of Object.entries(DEPRECATED)) {
    documentedGet(
      routes,
      {
        paths: [path],
        tag: "Deprecated",
        summary: `Deprecated: ${message.slice(message.indexOf("Use ") + 4, -" instead.".length)} replaces it`,
        params: { domain: anyText, record: anyText },
        query: {},
        rpc: false,
        cache: "chain",
        result: undefined,
        errors: { 400: [message] },
        examples: {
          deprecated: {
            summary: "Always",
            params: { domain: "plain", record: "SOL" },
            status: 400,
            body: { s: "error", result: message },
          },
        },
      },
      (c) => fail(c, 400, message),
    );
  }
  return routes;
}
