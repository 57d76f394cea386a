import type { Logger } from "pino";
import type { RpcEndpoints } from "../rpc/endpoints.js";
import type { Resolver } from "../service/resolver.js";

/** What routes need from the rest of the gateway. */
export interface AppDeps {
  readonly endpoints: RpcEndpoints;
  readonly resolver: Resolver;
  readonly logger: Logger;
  /** max-age of cacheable record routes (CACHE_TTL_SECONDS). */
  readonly cacheTtlSeconds: number;
  /** Requests with `rpc` per minute per client IP; 0: unlimited. */
  readonly overrideRateLimit: number;
  /** Header a trusted proxy sets with the client IP; undefined: the socket's peer. */
  readonly clientIpHeader: string | undefined;
}

export interface AppEnv {
  Variables: {
    /** Cache-Control chosen by the route for a successful answer; errors are never cacheable. */
    cacheControl: string;
    error: unknown;
  };
}
