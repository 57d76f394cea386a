import type { Context } from "hono";
import type { GatewayConfig } from "./config.js";
import { createApp } from "./http/app.js";
import { ResolveRepeats } from "./http/answer/resolve-repeats.js";
import { ClientCallLimit } from "./http/clients/client-call-limit.js";
import type { EdgeCache } from "./http/answer/edge-cache.js";
import type { DocsAssets } from "./http/docs-assets.js";
import type { Logger } from "./logger.js";
import type { Defer, SettlePacing } from "./rpc/account-loader.js";
import {
  type AnswerMemory,
  type CutoffMemory,
  type EndpointSelector,
  RpcEndpoints,
  namesConfiguredOf,
} from "./rpc/endpoints.js";
import type { RpcEndpoint } from "./rpc/endpoint.js";
import type { TransportFactory } from "./rpc/transport/contract.js";
import { breakerSettings, endpointHealths } from "./rpc/failover/endpoint-set.js";
import type { EndpointHealth } from "./rpc/failover/endpoint-health.js";
import { hostLabels } from "./rpc/failover/host-label.js";
import { type TipMemo, readiness } from "./service/readiness.js";
import { Resolver } from "./service/resolver.js";
import { routeBulkheads } from "./service/bulkhead.js";
import type { TokenizedRecordStore } from "./service/record-store.js";
import { type MintIndex, TokenizedIndex, indexedSource } from "./service/tokenized-index.js";
import { scanTokenizedDomains } from "./sns/queries/tokenized-domains.js";
import { type MetricsExporter, NO_TELEMETRY, type Telemetry } from "./telemetry.js";
import type { Tracer } from "./tracer.js";

const MiB = 1024 * 1024;

/**
 * Memory for RPC answers: sized so that the worst burst (every pool full,
 * each byte held as raw text and as parsed value) fits the 160 MB old
 * generation that `npm start` gives V8, next to the memos and caches.
 */
export const ANSWER_MEMORY: AnswerMemory = {
  trustedAnswerBytes: 16 * MiB,
  trustedInFlightBytes: 16 * MiB,
  overrideAnswerBytes: 4 * MiB,
  overridesInFlightBytes: 8 * MiB,
  bytesPerAccount: 1 * MiB,
};

/**
 * What only makes the gateway faster or smoother on a platform: each has a
 * plain default with the same answers, so a platform may give none of them.
 */
export interface Accelerators {
  /** When batched RPC reads leave (see AccountLoaderOptions.defer); absent: a zero-delay timer. */
  readonly defer?: Defer;
  /** How a batch reply's reads are settled, one per loader (see AccountLoaderOptions.pacing); absent: all at once. */
  readonly settlePacing?: () => SettlePacing;
  /**
   * Lets the event loop serve other requests between slices of a request's
   * work over RPC-supplied lists (Node: `setImmediate`, after pending I/O);
   * absent: a zero-delay timer.
   */
  readonly yieldToLoop?: () => Promise<void>;
  /** Reads a request header (lower-case name) as `c.req.header(name)` would, without its cost; absent: that. */
  readonly requestHeader?: (c: Context, name: string) => string | undefined;
  /**
   * The key by which a listener in front of the app recognises a repeat of
   * this request (see ResolveRepeats), or undefined when it would not;
   * absent: no listener does.
   */
  readonly requestKey?: (c: Context) => string | undefined;
}

/** What a platform entry supplies; everything else is built here, with no platform API in reach. */
export interface Platform {
  readonly logger: Logger;
  /** Builds the transports of one set of endpoints. */
  transports(): TransportFactory;
  /** The connection's peer address (for the override rate limit). */
  peerAddress(c: Context): string | undefined;
  /** The packaged files of the `/docs` page (the app reads no files). */
  readonly docsAssets: DocsAssets;
  /**
   * Workers may not share a promise between requests: there, each request
   * gets its own endpoints (loaders, coalescing) and only plain data
   * (answers, `.sol` cutoff knowledge) outlives it.
   */
  readonly endpointsPerRequest?: boolean;
  /** Where the gateway reports what it does; none when absent. */
  readonly telemetry?: Telemetry;
  /** When given, `GET /metrics` answers its rendering. */
  readonly metrics?: MetricsExporter;
  /** Spans around resolutions (src/tracer.ts); none when absent. */
  readonly tracer?: Tracer;
  /** The host's clock in milliseconds, against which SRS expiries are compared; absent: Date.now. */
  readonly clock?: () => number;
  /** Speed only (see Accelerators); absent: every default. */
  readonly accelerators?: Accelerators;
  /**
   * The tokenized index of `RPC_URL` where it lives outside the gateway's
   * own state (Workers: a Durable Object), for this request; absent or
   * undefined: with per-request endpoints, `/domains` scans.
   */
  readonly remoteTokenizedIndex?: (c: Context) => MintIndex | undefined;
  /** The package version, and the commit when the environment says it (GIT_COMMIT), for `/ready`. */
  readonly version?: { readonly package: string; readonly commit: string | null };
  /**
   * Where `resolve` answers are shared between the isolates of a location
   * (Workers: the Cache API), used while RESOLVE_CACHE_TTL_MS is on
   * (http/answer/edge-cache.ts); absent: none.
   */
  readonly edgeCache?: EdgeCache;
}

export interface Gateway {
  readonly app: ReturnType<typeof createApp>;
  /** Answers repeated `/resolve` requests from the resolve cache before the app (with a cache and `Platform.requestKey`). */
  readonly resolveRepeats?: ResolveRepeats;
  readonly logger: Logger;
  /** Releases RPC connections; call after the HTTP server has drained. */
  dispose(): Promise<void>;
}

/** Plain data that per-request endpoints keep across requests: `.sol` cutoff state by URL, bounded. */
function cutoffMemory(): CutoffMemory {
  const states = new Map<string, { reached: boolean; openUntil: number }>();
  return {
    get: (url) => states.get(url),
    set(url, state) {
      if (states.size >= 1024) states.delete(states.keys().next().value!);
      states.set(url, state);
    },
  };
}

const yieldByTimer = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

type EndpointsPlatform = Pick<Platform, "transports" | "telemetry" | "accelerators" | "tracer">;

/**
 * Builds a function that makes one set of RPC endpoints of `config`; each set shares the health of the URLs
 * (with several), which it hands on too.
 */
function endpointsOf(
  config: GatewayConfig,
  platform: EndpointsPlatform,
  cutoffs?: CutoffMemory,
): { readonly make: () => RpcEndpoints; readonly health: readonly EndpointHealth[] | undefined } {
  const accelerators = platform.accelerators ?? {};
  const { telemetry } = platform;
  // Endpoint health outlives every set of endpoints (on Workers, one per request): plain state only.
  const health =
    config.rpcUrls.length > 1
      ? endpointHealths(config.rpcUrls, breakerSettings(config.rpcTimeoutMs), telemetry ?? NO_TELEMETRY)
      : undefined;
  const make = () =>
    new RpcEndpoints({
      rpcUrls: config.rpcUrls,
      timeoutMs: config.rpcTimeoutMs,
      hedgeMs: config.rpcHedgeMs,
      ...(health && { health }),
      memory: ANSWER_MEMORY,
      override: {
        enabled: config.rpcOverride,
        allowedHosts: config.rpcOverrideHosts,
        allowPrivate: config.allowPrivateRpcOverride,
      },
      maxOverrideEndpoints: 256,
      budgets: { trusted: config.rpcBudget, override: config.rpcOverrideBudget },
      loader: {
        commitment: "processed",
        maxKeysPerCall: 100,
        maxCallsPerRequest: 20,
        maxInFlight: config.rpcMaxInFlight,
        windowMs: config.batchWindowMs,
        maxQueuedKeys: 100_000,
        // A gather goes by poll phases: only with the platform's check-phase defer (Node; Workers make a loader per request).
        ...(accelerators.defer && { defer: accelerators.defer, gatherMs: config.batchGatherMs }),
        ...(accelerators.settlePacing && { pacing: accelerators.settlePacing }),
        ...(platform.tracer && { contexts: platform.tracer.contexts }),
      },
      transports: platform.transports(),
      telemetry,
      ...(cutoffs && { cutoffMemory: cutoffs }),
    });
  return { make, health };
}

/** A request waits for the index at most half its RPC deadline, and keeps the rest for the scan. */
export const indexWaitMs = (config: GatewayConfig): number => Math.ceil(config.rpcTimeoutMs / 2);

/** The tokenized index of `RPC_URL` read through `trusted`, over `store` (absent: compact rows in this process). */
function tokenizedIndexOf(
  config: GatewayConfig,
  trusted: RpcEndpoint,
  platform: Pick<Platform, "logger" | "telemetry" | "tracer">,
  store?: TokenizedRecordStore,
): TokenizedIndex {
  return new TokenizedIndex(trusted, {
    maxBytes: config.tokenizedIndexMaxMb * MiB,
    maxWaitMs: indexWaitMs(config),
    floorGiveUpMs: config.tokenizedIndexFloorGiveUpMs,
    logger: platform.logger,
    ...(store && { store }),
    ...(platform.telemetry && { telemetry: platform.telemetry }),
    ...(platform.tracer && { contexts: platform.tracer.contexts }),
  });
}

/** The tokenized index of `RPC_URL` with its own endpoints, for a host that keeps it apart from the gateway. */
export interface IndexHost {
  readonly index: TokenizedIndex;
  dispose(): Promise<void>;
}

/**
 * Builds the tokenized index of `RPC_URL` over `store`, with endpoints of
 * its own that its reads share (a Durable Object may share promises
 * between the requests it serves). Undefined without `RPC_URL` or with
 * `TOKENIZED_INDEX=off`.
 */
export function createIndexHost(
  config: GatewayConfig,
  platform: EndpointsPlatform & Pick<Platform, "logger">,
  store: TokenizedRecordStore,
): IndexHost | undefined {
  if (!config.tokenizedIndex) return undefined;
  const endpoints = endpointsOf(config, platform).make();
  const trusted = endpoints.trustedEndpoint;
  if (!trusted) return undefined;
  const index = tokenizedIndexOf(config, trusted, platform, store);
  return {
    index,
    dispose: () => {
      index.dispose();
      return endpoints.close();
    },
  };
}

/** Wires configuration into the layers: RPC endpoints → resolver → HTTP app. */
export function createGateway(config: GatewayConfig, platform: Platform): Gateway {
  const perRequest = platform.endpointsPerRequest ?? false;
  const accelerators = platform.accelerators ?? {};
  const { telemetry } = platform;
  const { make: makeEndpoints, health } = endpointsOf(config, platform, perRequest ? cutoffMemory() : undefined);
  const resolver = new Resolver({
    pda: config.pdaPolicy,
    cacheTtlMs: config.resolveCacheTtlMs,
    // A background refresh would outlive its request: not where each request has its own endpoints.
    refreshAhead: !perRequest,
    cacheMaxEntries: 50_000,
    maxCoalesced: perRequest ? 0 : 100_000,
    holderTtlMs: config.nftHolderTtlMs,
    telemetry,
    srs: config.solSrsResolution,
    ...(platform.clock && { clock: platform.clock }),
    yieldTurn: accelerators.yieldToLoop ?? yieldByTimer,
    ...(platform.tracer && { tracer: platform.tracer }),
  });
  const shared = perRequest ? undefined : makeEndpoints();
  // The HTTP layer asks once per request, so per-request endpoints are built only when a route needs RPC.
  const endpoints: EndpointSelector = shared ?? {
    select: (override) => makeEndpoints().select(override),
    namesConfigured: namesConfiguredOf(config.rpcUrls),
    answerBytesInFlight: 0,
  };
  // RPC_URL gets an index of the tokenizer; `rpc` overrides scan per request, as upstream.
  // The index is shared state with pending reads: never with per-request endpoints.
  const trusted = shared?.trustedEndpoint;
  const index = config.tokenizedIndex && trusted ? tokenizedIndexOf(config, trusted, platform) : undefined;
  const remote = config.tokenizedIndex ? platform.remoteTokenizedIndex : undefined;
  // Workers may cancel a request and never run its `finally`: places it held are taken back once it
  // has outlived any request's deadline (the longer budget) and one more RPC timeout.
  const workLeaseMs = perRequest
    ? Math.max(config.rpcBudget.deadlineMs, config.rpcOverrideBudget.deadlineMs) + config.rpcTimeoutMs
    : undefined;
  // Repeats are answered on RPC_URL (from its cache, or resolved there): without RPC_URL the app answers (500).
  // One count of RPC_URL calls per client, for the app and for repeats answered before it.
  const callLimit = config.rpcRateLimit > 0 ? new ClientCallLimit(config.rpcRateLimit) : undefined;
  const resolveRepeats =
    shared && trusted && accelerators.requestKey
      ? new ResolveRepeats({
          resolver,
          endpoints: shared,
          logger: platform.logger,
          telemetry,
          keyOf: accelerators.requestKey,
          yieldToLoop: accelerators.yieldToLoop ?? yieldByTimer,
          ...(callLimit && { callLimit }),
        })
      : undefined;
  const tip: TipMemo = {};
  const app = createApp({
    endpoints,
    resolver,
    readiness: () =>
      readiness({
        endpoint: () =>
          shared?.trustedEndpoint ?? (config.rpcUrls.length > 0 ? makeEndpoints().trustedEndpoint : undefined),
        health,
        singleHost: config.rpcUrls.length === 1 ? hostLabels(config.rpcUrls)[0] : undefined,
        index,
        indexElsewhere: index === undefined && remote !== undefined,
        maxIndexLagSlots: config.readyMaxIndexLagSlots,
        srs: config.solSrsResolution,
        version: platform.version ?? { package: "unknown", commit: null },
        tip,
      }),
    tokenizedSource: (c, viaOverride) => {
      if (viaOverride) return scanTokenizedDomains;
      if (index) return index.source;
      const elsewhere = remote?.(c);
      return elsewhere ? indexedSource(elsewhere, telemetry) : scanTokenizedDomains;
    },
    logger: platform.logger,
    telemetry,
    metrics: platform.metrics,
    cacheTtlSeconds: config.cacheTtlSeconds,
    overrideRateLimit: config.rpcOverrideRateLimit,
    ...(callLimit && { callLimit }),
    bulkheads: routeBulkheads(
      config.bulkheads,
      {
        records: config.rpcBudget.deadlineMs,
        wallets: config.rpcBudget.deadlineMs,
        // Only requests naming `rpc` wait here.
        overrideLists: config.rpcOverrideBudget.deadlineMs,
      },
      workLeaseMs,
    ),
    bulkWaitMs: config.rpcBudget.deadlineMs,
    ...(workLeaseMs !== undefined && { workLeaseMs }),
    yieldToLoop: accelerators.yieldToLoop ?? yieldByTimer,
    clientIpHeader: config.clientIpHeader,
    peerAddress: platform.peerAddress,
    requestHeader: accelerators.requestHeader ?? ((c, name) => c.req.header(name)),
    docsAssets: platform.docsAssets,
    ...(resolveRepeats && { resolveRepeats }),
    ...(platform.edgeCache && config.resolveCacheTtlMs > 0 && { edgeCache: platform.edgeCache }),
    ...(config.legacyHosts && { legacyHosts: config.legacyHosts }),
  });
  return {
    app,
    ...(resolveRepeats && { resolveRepeats }),
    logger: platform.logger,
    dispose: () => {
      index?.dispose();
      return shared?.close() ?? Promise.resolve();
    },
  };
}
