import { NO_STORE } from "./cache-control.js";

/** Paths whose answers depend only on the chain (PROTOCOL §7.7): shared caches may keep them briefly. */
const CACHEABLE_PREFIXES = [
  "/domain-key/",
  "/domains/",
  "/primary-domain/",
  "/favorite-domain/",
  "/multiple-primary-domains/",
  "/multiple-favorite-domains/",
  "/reverse-key/",
  "/reverse-lookup/",
  "/subdomains/",
  "/record-key/",
  "/record-key-v2/",
  "/record/",
  "/record-v2/",
  "/records-v2/",
];
const CACHEABLE_PATHS = new Set(["/types/record"]);
const RESOLVE_PREFIXES = ["/resolve/", "/safe-resolve/"];
/** The API reference changes only with the deployed version: kept a few minutes, so a deploy shows soon. */
const REFERENCE_PATHS = new Set(["/openapi.json", "/docs"]);
const REFERENCE_PREFIXES = ["/docs/"];
const REFERENCE_POLICY = "public, max-age=300";

export interface CachePolicyOptions {
  /** max-age of cacheable paths (CACHE_TTL_SECONDS). */
  readonly ttlSeconds: number;
  /** The gateway's own resolve cache lifetime; `/resolve` answers are shared no longer than that. */
  readonly resolveTtlSeconds: number;
}

/**
 * The one place that decides `Cache-Control`, from the path alone: the
 * policy a success on `path` earns. Errors (cache-control.ts) and answers
 * read through an `rpc` override (someone else's view of the chain) are
 * never shared. The policy is decided before the route runs, for envelope
 * answers to carry it (envelope.ts); any other answer gets its header once
 * the route has answered (frame/frame.ts).
 */
export function cachePolicy(options: CachePolicyOptions): (path: string) => string {
  const cacheable = `public, max-age=${options.ttlSeconds}, stale-while-revalidate=180, stale-if-error=0`;
  const resolve = options.resolveTtlSeconds > 0 ? `public, max-age=${options.resolveTtlSeconds}` : NO_STORE;
  return (path) => {
    if (CACHEABLE_PATHS.has(path) || CACHEABLE_PREFIXES.some((prefix) => path.startsWith(prefix))) return cacheable;
    if (RESOLVE_PREFIXES.some((prefix) => path.startsWith(prefix))) return resolve;
    if (REFERENCE_PATHS.has(path) || REFERENCE_PREFIXES.some((prefix) => path.startsWith(prefix))) return REFERENCE_POLICY;
    return NO_STORE;
  };
}
