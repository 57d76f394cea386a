import { Hono } from "hono";
import type { AppEnv } from "../deps.js";
import { fail } from "../envelope.js";

const DEPRECATED = {
  "/record/:domain/:record": "This endpoint is deprecated. Use /record-v2/:domain/:record instead.",
  "/record-key/:domain/:record": "This endpoint is deprecated. Use /record-key-v2/:domain/:record instead.",
} as const;

/** Kept for compatibility: always 400 pointing to the replacement, no RPC, no validation. */
export function deprecatedRoutes(): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  for (const [path, message] of Object.entries(DEPRECATED)) {
    routes.get(path, (c) => fail(c, 400, message));
  }
  return routes;
}
