import type { Context } from "hono";
import { fail } from "../answer/envelope.js";
import type { ClientCallLimit } from "../clients/client-call-limit.js";
import type { AppEnv } from "../env.js";

/**
 * Lets a request of `client` in under `limit`: its window becomes the
 * request's allowance (`costAllowance`) and its `RateLimit-*` headers go on
 * whatever answer the request gets (`rateLimit`), or, once the client has
 * no calls left, the answer is 429 with `Retry-After` and the route never runs.
 */
export function admitClient(c: Context<AppEnv>, limit: ClientCallLimit, client: string): Response | undefined {
  const window = limit.windowOf(client);
  const headers = limit.headersOf(window);
  c.set("rateLimit", headers);
  if (headers["ratelimit-remaining"] === "0")
    return fail(c, 429, "Too many requests", { headers: { "retry-after": headers["ratelimit-reset"] } });
  c.set("costAllowance", window);
  return undefined;
}
