import type { Context, MiddlewareHandler } from "hono";
import { rateLimiter } from "hono-rate-limiter";
import type { AppEnv } from "../deps.js";
import { fail } from "../answer/envelope.js";

/**
 * The client's address: the socket's peer, or — only when an operator names
 * a header set by its own proxy — the last hop that proxy appended. Other
 * headers are client-controlled and would let anyone pick their own bucket.
 */
function clientIp(c: Context, header: string | undefined, peerAddress: (c: Context) => string | undefined): string {
  if (header) {
    const hops = (c.req.header(header) ?? "").split(",");
    const last = hops[hops.length - 1]?.trim();
    if (last) return last;
  }
  return peerAddress(c) ?? "unknown";
}

/**
 * Requests naming their own RPC endpoint make this server fetch from a
 * third party; each client IP gets `perMinute` of them. Called (by
 * frame.ts) only for requests that name one: the others are never
 * counted.
 */
export function overrideRateLimit(
  perMinute: number,
  clientIpHeader: string | undefined,
  peerAddress: (c: Context) => string | undefined,
): MiddlewareHandler<AppEnv> {
  const limiter = rateLimiter<AppEnv>({
    windowMs: 60_000,
    limit: perMinute,
    standardHeaders: "draft-6",
    keyGenerator: (c) => clientIp(c, clientIpHeader, peerAddress),
    handler: (c) => fail(c, 429, "Too many requests"),
  });
  return function overrideRateLimit(c, next) {
    // The limiter puts its RateLimit-* headers on the context (`c.header`): the answer must keep them.
    c.set("contextHeaders", true);
    return limiter(c, next);
  };
}
