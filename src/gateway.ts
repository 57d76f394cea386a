import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { type Logger, pino } from "pino";
import type { GatewayConfig } from "./config.js";
import { createApp } from "./http/app.js";
import { createDrainableServer } from "./http/node-listener.js";
import { PrometheusTelemetry } from "./platform/node-metrics.js";
import { type AnswerMemory, RpcEndpoints } from "./rpc/endpoints.js";

const MiB = 1024 * 1024;

/**
 * Memory for RPC answers: sized so that the worst burst (every pool full,
 * each byte held as raw text and as parsed value) fits the 96 MB heap that
 * `npm start` gives V8, next to the caches.
 */
export const ANSWER_MEMORY: AnswerMemory = {
  trustedAnswerBytes: 16 * MiB,
  trustedInFlightBytes: 16 * MiB,
  overrideAnswerBytes: 4 * MiB,
  overridesInFlightBytes: 8 * MiB,
  bytesPerAccount: 1 * MiB,
};
import { Resolver } from "./service/resolver.js";
import { TokenizedIndex } from "./service/tokenized-index.js";
import { scanTokenizedDomains } from "./sns/queries/tokenized-domains.js";

export interface Gateway {
  readonly app: ReturnType<typeof createApp>;
  readonly logger: Logger;
  /** Releases RPC connections; call after the HTTP server has drained. */
  dispose(): Promise<void>;
}

/** Wires configuration into the layers: RPC endpoints → resolver → HTTP app. */
export function createGateway(config: GatewayConfig, logger: Logger = pino({ level: config.logLevel })): Gateway {
  const metrics = config.metrics ? new PrometheusTelemetry() : undefined;
  const endpoints = new RpcEndpoints({
    telemetry: metrics,
    rpcUrl: config.rpcUrl,
    timeoutMs: config.rpcTimeoutMs,
    memory: ANSWER_MEMORY,
    override: {
      enabled: config.rpcOverride,
      allowedHosts: config.rpcOverrideHosts,
      allowPrivate: config.allowPrivateRpcOverride,
    },
    maxOverrideEndpoints: 256,
    loader: {
      commitment: "processed",
      maxKeysPerCall: 100,
      maxCallsPerRequest: 20,
      maxInFlight: config.rpcMaxInFlight,
      windowMs: config.batchWindowMs,
      maxQueuedKeys: 100_000,
    },
  });
  const resolver = new Resolver({
    pda: config.pdaPolicy,
    cacheTtlMs: config.resolveCacheTtlMs,
    cacheMaxEntries: 50_000,
    maxCoalesced: 100_000,
    holderTtlMs: config.nftHolderTtlMs,
    telemetry: metrics,
  });
  // RPC_URL gets an index of the tokenizer; `rpc` overrides scan per request, as upstream.
  const trusted = endpoints.trustedEndpoint;
  const index = config.tokenizedIndex && trusted ? new TokenizedIndex(trusted) : undefined;
  const app = createApp({
    endpoints,
    resolver,
    // Routes see their endpoint through a per-request view (src/http/rpc-usage.ts): compare URLs.
    tokenizedSource: (endpoint) => (index && endpoint.url === trusted?.url ? index.source : scanTokenizedDomains),
    logger,
    telemetry: metrics,
    metrics,
    cacheTtlSeconds: config.cacheTtlSeconds,
    overrideRateLimit: config.rpcOverrideRateLimit,
    clientIpHeader: config.clientIpHeader,
  });
  return { app, logger, dispose: () => endpoints.close() };
}

export interface RunningGateway {
  readonly url: string;
  readonly server: Server;
  readonly gateway: Gateway;
  /** Stops accepting, lets in-flight requests finish (up to the grace period), then releases everything. */
  close(): Promise<void>;
}

export async function startGateway(config: GatewayConfig, logger?: Logger): Promise<RunningGateway> {
  const gateway = createGateway(config, logger);
  const drainable = createDrainableServer({
    fetch: gateway.app.fetch,
    logger: gateway.logger,
    headersTimeoutMs: config.headersTimeoutMs,
  });
  const { server } = drainable;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : config.host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    server,
    gateway,
    close() {
      closing ??= drainable.drain(config.shutdownGraceMs).then(() => gateway.dispose());
      return closing;
    },
  };
}
