import type { RpcEndpoint } from "../rpc/endpoint.js";
import type { RpcEndpoints } from "../rpc/endpoints.js";
import type { TokenizedDomainSource } from "../sns/queries/tokenized-domains.js";
import type { Resolver } from "../service/resolver.js";
import type { MetricsExporter, Telemetry } from "../telemetry.js";
import type { RpcUsage } from "./rpc-usage.js";

/** The little the app needs of a logger: pino satisfies it, so does a console-JSON logger. */
export interface AppLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** What routes need from the rest of the gateway. */
export interface AppDeps {
  readonly endpoints: RpcEndpoints;
  readonly resolver: Resolver;
  readonly logger: AppLogger;
  /** Where request counts, latencies and in-flight requests are reported; none when absent. */
  readonly telemetry?: Telemetry;
  /** When given, `GET /metrics` answers its rendering (Prometheus text); absent: no such route. */
  readonly metrics?: MetricsExporter;
  /** Where `/domains` finds a wallet's tokenized domains on an endpoint (an index for RPC_URL, else scans). */
  tokenizedSource(endpoint: RpcEndpoint): TokenizedDomainSource;
  /** max-age of cacheable record routes (CACHE_TTL_SECONDS). */
  readonly cacheTtlSeconds: number;
  /** Requests with `rpc` per minute per client IP; 0: unlimited. */
  readonly overrideRateLimit: number;
  /** Header a trusted proxy sets with the client IP; undefined: the socket's peer. */
  readonly clientIpHeader: string | undefined;
}

export interface AppEnv {
  Variables: {
    /** The RPC endpoint of this request (`rpc` override or RPC_URL); throws when refused. */
    rpc: () => RpcEndpoint;
    error: unknown;
    /** Echoed in `X-Request-Id` and in the request's log lines. */
    requestId: string;
    /** Set once the request has chosen its endpoint. */
    rpcUsage: RpcUsage;
  };
}
