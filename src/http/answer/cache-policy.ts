import type { CacheClass } from "../openapi/route-answers.js";
import { NO_STORE } from "./cache-control.js";

/** The API reference: kept a few minutes, so a deploy shows soon. */
const REFERENCE_POLICY = "public, max-age=300";

export interface CachePolicyOptions {
  /** max-age of `chain` routes (CACHE_TTL_SECONDS). */
  readonly ttlSeconds: number;
  /** The gateway's own resolve cache lifetime; `resolve` routes are shared no longer than that. */
  readonly resolveTtlSeconds: number;
}

/**
 * The one place that decides `Cache-Control`: the policy a success on a
 * route of `CacheClass` earns. Errors (cache-control.ts) and answers read
 * through an `rpc` override (someone else's view of the chain) are never
 * shared. The policy is decided before the route runs, so every answer
 * carries it from the moment it is built (headers.ts).
 */
export function cachePolicy(options: CachePolicyOptions): (cache: CacheClass) => string {
  const policies: Record<CacheClass, string> = {
    chain: `public, max-age=${options.ttlSeconds}, stale-while-revalidate=180, stale-if-error=0`,
    resolve: options.resolveTtlSeconds > 0 ? `public, max-age=${options.resolveTtlSeconds}` : NO_STORE,
    reference: REFERENCE_POLICY,
    none: NO_STORE,
  };
  return (cache) => policies[cache];
}
