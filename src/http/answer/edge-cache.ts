import type { Context } from "hono";
import type { AppEnv } from "../env.js";
import { answerHeaders } from "./headers.js";

/** The part of the Workers runtime's Cache API the gateway uses (no dependency on its type package). */
export interface EdgeCache {
  match(request: Request): Promise<Response | undefined>;
  put(request: Request, response: Response): Promise<void>;
}

/** Headers that belong to the one request an answer was given to: never kept at the edge. */
const PER_REQUEST = ["x-request-id", "ratelimit-limit", "ratelimit-policy", "ratelimit-remaining", "ratelimit-reset"];

/**
 * When the kept answer was read (ms since the epoch), on the kept copy only:
 * its `Age` is worked out from it when it is given again (a runtime that
 * adds one of its own counts from the put, not from the read).
 */
const READ_AT = "x-sns-gateway-read-at";

/** Headers a kept answer holds that belong to the request it was first given to, or are written anew. */
const WRITTEN_ANEW = new Set([
  READ_AT,
  "age",
  "access-control-allow-origin",
  "cache-control",
  "content-type",
  "content-length",
  "x-request-id",
  "ratelimit-limit",
  "ratelimit-policy",
  "ratelimit-remaining",
  "ratelimit-reset",
]);

/**
 * The answer the edge cache keeps for this request (its URL), given as this
 * request's own: the kept status, body, `Cache-Control` and `Content-Type`
 * with this request's id and its client's `RateLimit-*` (answer/headers.ts),
 * the `X-Context-Slot` it was read at and its `Age` since, and what the
 * runtime adds to a kept answer (`CF-Cache-Status`).
 * The frame (frame/frame.ts) reports it as any answer: log line, metrics.
 * Undefined when the cache holds none, or cannot be read.
 */
export async function edgeCached(cache: EdgeCache, c: Context<AppEnv>): Promise<Response | undefined> {
  const kept = await cache.match(c.req.raw).catch(() => undefined);
  if (!kept) return undefined;
  const own: Record<string, string> = {};
  for (const [name, value] of kept.headers) if (!WRITTEN_ANEW.has(name)) own[name] = value;
  const readAt = Number(kept.headers.get(READ_AT));
  const age = Number.isFinite(readAt) && readAt > 0 ? Math.max(0, Math.floor((Date.now() - readAt) / 1000)) : undefined;
  c.set("answerCache", "hit");
  if (age !== undefined) c.set("answerAge", age);
  const headers = answerHeaders(
    kept.headers.get("cache-control") ?? undefined,
    c.get("requestId"),
    kept.headers.get("content-type") ?? undefined,
    own,
    c.get("rateLimit"),
    undefined,
    age,
  );
  return new Response(kept.body, { status: kept.status, headers });
}

/**
 * Keeps `answer` in the edge cache, in the background, when shared caches
 * may keep it (a success whose `Cache-Control` is public: never one read
 * through an `rpc` override, never an error); returns it.
 */
export function keptAtEdge(cache: EdgeCache, c: Context<AppEnv>, answer: Response): Response {
  if (answer.status === 200 && (answer.headers.get("cache-control") ?? "").startsWith("public")) {
    // Kept without the first request's id and rate-limit window: whatever reads the entry (this code, or
    // another version of the Worker during a rollout) cannot hand them to another client.
    const kept = answer.clone();
    const headers = new Headers(kept.headers);
    for (const name of PER_REQUEST) headers.delete(name);
    headers.set(READ_AT, String(Date.now() - 1000 * Number(answer.headers.get("age") ?? 0)));
    const entry = new Response(kept.body, { status: kept.status, headers });
    c.executionCtx.waitUntil(cache.put(c.req.raw, entry).catch(() => undefined));
  }
  return answer;
}
