import type { Context } from "hono";
import type { LegacyHosts } from "../config.js";
import type { Logger } from "../logger.js";
import type { EndpointSelector } from "../rpc/endpoints.js";
import type { YieldToLoop } from "../rpc/request-view.js";
import type { TokenizedDomainSource } from "../sns/queries/tokenized-domains.js";
import type { FullDomain } from "../sns/domain.js";
import type { Resolver } from "../service/resolver.js";
import type { ReadinessReport } from "../service/readiness.js";
import type { RouteBulkheads } from "../service/bulkhead.js";
import type { MetricsExporter, Telemetry } from "../telemetry.js";
import type { EdgeCache } from "./answer/edge-cache.js";
import type { ClientCallLimit } from "./clients/client-call-limit.js";
import type { DocsAssets } from "./docs-assets.js";
import type { AppEnv } from "./env.js";

/**
 * Where the resolve route reports a request it validated, so that its
 * repeats are answered before routing (answer/resolve-repeats.ts).
 */
export interface ResolveRepeatsLearner {
  learn(c: Context<AppEnv>, domain: FullDomain): void;
}

/** What routes need from the rest of the gateway. */
export interface AppDeps {
  /** Concurrency limits of the heavy routes (service/bulkhead.ts). */
  readonly bulkheads: RouteBulkheads;
  /**
   * Where the runtime may cancel a request without running its `finally`
   * (Workers), how long a request may hold a place in a concurrency limit
   * before it is taken back (BulkheadLimits.leaseMs); absent: until it answers.
   */
  readonly workLeaseMs?: number;
  /** Longest a bulk request waits for its turn before it is refused (503 `Service overloaded`). */
  readonly bulkWaitMs: number;
  /** Picks a request's RPC endpoint (on Workers, endpoints built for that request alone). */
  readonly endpoints: EndpointSelector;
  readonly resolver: Resolver;
  readonly logger: Logger;
  /** Where request counts, latencies and in-flight requests are reported; none when absent. */
  readonly telemetry?: Telemetry;
  /** When given, `GET /metrics` answers its rendering (Prometheus text); absent: no such route. */
  readonly metrics?: MetricsExporter;
  /** Where `/domains` finds a wallet's tokenized domains (an index for RPC_URL, else scans; always scans with `rpc`). */
  tokenizedSource(c: Context, viaOverride: boolean): TokenizedDomainSource;
  /** max-age of cacheable record routes (CACHE_TTL_SECONDS). */
  readonly cacheTtlSeconds: number;
  /** JSON-RPC calls that requests with `rpc` may cause per minute per client; 0: unlimited. */
  readonly overrideRateLimit: number;
  /** What one client's requests may cost `RPC_URL` (RPC_RATE_LIMIT), shared with what answers before the app; absent: unlimited. */
  readonly callLimit?: ClientCallLimit;
  /** Lets the event loop serve other requests between slices of a request's work over RPC-supplied lists. */
  readonly yieldToLoop: YieldToLoop;
  /** Header a trusted proxy sets with the client IP; undefined: the socket's peer. */
  readonly clientIpHeader: string | undefined;
  /** The connection's peer address as the platform knows it. */
  peerAddress(c: Context): string | undefined;
  /** A request header (name in lower case) as `c.req.header(name)` reads it; platforms may read it cheaper. */
  requestHeader(c: Context, name: string): string | undefined;
  /** The packaged files of the `/docs` page (Swagger UI); the app itself reads no files. */
  readonly docsAssets: DocsAssets;
  /** Where the resolve route reports the requests it validated, to answer their repeats before routing; absent: none. */
  readonly resolveRepeats?: ResolveRepeatsLearner;
  /** Readiness now (`/ready`, service/readiness.ts). */
  readiness(): Promise<ReadinessReport>;
  /** Where `resolve` answers are shared by the platform (Workers: the Cache API); absent: none. */
  readonly edgeCache?: EdgeCache;
  /** Hosts whose requests are answered by the legacy profile (LEGACY_HOSTS); absent: none. */
  readonly legacyHosts?: LegacyHosts;
}
