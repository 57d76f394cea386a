import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env.js";

const DESCRIPTION = `HTTP gateway for Solana Name Service names, a drop-in replacement for the
upstream \`sdk-proxy\`.

Every answer is JSON in the envelope \`{ "s": "ok" | "error", "result": … }\`, with CORS for any
origin. Besides the statuses listed per route, any path answers 404 \`Not found\` when no route
matches, and 405 \`Method not allowed\` for methods other than GET, HEAD and OPTIONS.

Routes that read the chain take an optional \`rpc\` query parameter overriding \`RPC_URL\` for that
request; it is checked after the path, so a bad path answers first.

The named examples of each route are requests against the demo ledger (\`npm run demo\`) and
the answers it gives.`;

/** The OpenAPI 3.1 document of every route registered on `app`. */
export function buildDocument(app: OpenAPIHono<AppEnv>) {
  return app.getOpenAPI31Document({
    openapi: "3.1.0",
    info: { title: "SNS gateway", version: "0.1.0", description: DESCRIPTION, license: { name: "MIT" } },
    tags: [
      { name: "Resolution", description: "Domain → the key that should receive funds" },
      { name: "Records", description: "V2 records of a domain" },
      { name: "Names and wallets", description: "Keys of names, and the names of keys and wallets" },
      { name: "Deprecated", description: "Kept for compatibility; always 400" },
      { name: "Service", description: "Health and this reference" },
    ],
  });
}
