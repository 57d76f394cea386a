import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { serve } from "@hono/node-server";
import { type Logger, pino } from "pino";
import type { GatewayConfig } from "./config.js";
import { createApp } from "./http/app.js";
import { RpcEndpoints } from "./rpc/endpoints.js";
import { Resolver } from "./service/resolver.js";

export interface Gateway {
  readonly app: ReturnType<typeof createApp>;
  readonly logger: Logger;
  /** Releases RPC connections; call after the HTTP server has drained. */
  dispose(): Promise<void>;
}

/** Wires configuration into the layers: RPC endpoints → resolver → HTTP app. */
export function createGateway(config: GatewayConfig, logger: Logger = pino({ level: config.logLevel })): Gateway {
  const endpoints = new RpcEndpoints({
    rpcUrl: config.rpcUrl,
    timeoutMs: config.rpcTimeoutMs,
    maxResponseBytes: 16 * 1024 * 1024,
    allowPrivateOverride: config.allowPrivateRpcOverride,
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
  });
  const app = createApp({ endpoints, resolver, logger, cacheTtlSeconds: config.cacheTtlSeconds });
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
  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: gateway.app.fetch, port: config.port, hostname: config.host }, () => resolve(s as Server));
    (s as Server).once("error", reject);
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : config.host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    server,
    gateway,
    close() {
      closing ??= drain(server, config.shutdownGraceMs).then(() => gateway.dispose());
      return closing;
    },
  };
}

function drain(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), graceMs);
    force.unref();
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    // Idle keep-alive sockets would otherwise hold close() open.
    server.closeIdleConnections();
  });
}
