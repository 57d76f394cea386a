import type { Context } from "hono";
import type { Logger } from "../logger.js";
import type { RpcEndpoint } from "../rpc/endpoint.js";
import type { EndpointSelector } from "../rpc/endpoints.js";
import type { TokenizedDomainSource } from "../sns/queries/tokenized-domains.js";
import type { Resolver } from "../service/resolver.js";
import type { RouteBulkheads } from "../service/bulkhead.js";
import type { Classified } from "./answer/classify.js";
import type { DocsAssets } from "./docs-assets.js";
import type { MetricsExporter, Telemetry } from "../telemetry.js";
import type { ResolveShortcut } from "./answer/repeat-answer.js";
import type { CostAllowance, RequestBudget } from "../rpc/request-budget.js";
import type { RpcUsage, YieldToLoop } from "./frame/rpc-usage.js";
import type { ClientCallLimit } from "./frame/client-call-limit.js";

/** What a bulk request asked for and got, for its log line (see docs/operations.md, "Request log"). */
export interface BulkTally {
  /** Names in the request, repeats included. */
  readonly names: number;
  /** Names resolved: valid, and each spelling of a name once. */
  readonly distinct: number;
  /** Items by status. */
  readonly items: Readonly<Record<string, number>>;
  /** JSON-RPC calls the request paid for (its budget's count; reads shared with other requests count for each). */
  readonly jsonRpcCalls: number;
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
  readonly resolveShortcut?: Pick<ResolveShortcut, "learn">;
}

export interface AppEnv {
  Variables: {
    /** The RPC endpoint of this request (`rpc` override or RPC_URL); throws when refused. */
    rpc: () => RpcEndpoint;
    /** The failure this request is answered with (answer/failure.ts), for its log line. */
    failure: Classified;
    /** Echoed in `X-Request-Id` and in the request's log lines. */
    requestId: string;
    /** Set once the request has chosen its endpoint. */
    rpcUsage: RpcUsage;
    /** What the request may still cause at its endpoint; set once it has chosen one (request-budget.ts). */
    rpcBudget: RequestBudget;
    /**
     * Set by a route before it asks for its endpoint when one request does
     * the work of several (the bulk routes: one per 100 names): its budget
     * allows that many times the endpoint's JSON-RPC calls.
     */
    budgetCallsScale: number;
    /** The client's allowance of RPC calls (frame/client-call-limit.ts). */
    costAllowance: CostAllowance;
    /** The client the request is counted for, once worked out (frame/client-key.ts). */
    clientKey: string;
    /** Cache-Control of this request's answer if it succeeds (errors: `no-store`); see answer/cache-policy.ts. */
    sharedCacheControl: string;
    /** The answer built with all of its headers (see answer/envelope.ts): nothing to add to it. */
    envelopeAnswer: Response;
    /** Set by the bulk routes: what the request's log line reports of its names. */
    bulk: BulkTally;
    /** Headers a step before the route decided for the answer, names in lower case (answer/envelope.ts, `addAnswerHeaders`). */
    answerHeaders: Readonly<Record<string, string>>;
  };
}
