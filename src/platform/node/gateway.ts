import { readFileSync } from "node:fs";
import type { Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { getConnInfo } from "@hono/node-server/conninfo";
import { pino } from "pino";
import type { GatewayConfig } from "../../config.js";
import { type Gateway, type Platform, createGateway } from "../../gateway.js";
import type { Logger } from "../../logger.js";
import type { Defer } from "../../rpc/account-loader.js";
import { nodeDocsAssets } from "./docs-assets.js";
import { PrometheusTelemetry } from "./metrics.js";
import { type ListenerOptions, createDrainableServer } from "./listener.js";
import { incomingHeader, nodeRequestHeader } from "./request-header.js";
import { nodeContextRequestKey, nodeRequestKey } from "./request-key.js";
import { nodeSettlePacing } from "./settle-pacing.js";
import { createNodeTransports } from "../../rpc/transport/undici.js";
import { clientKeyFrom } from "../../http/clients/client-key.js";
import type { NodeTracing } from "./telemetry/node-tracing-port.js";
import type { RepeatAnswer, ResolveRepeats } from "../../http/answer/resolve-repeats.js";

/** How long the spans still buffered at shutdown may take to reach the collector, after the drain. */
export const TRACES_FLUSH_MS = 2000;

/** After the current macrotask's I/O callbacks: reads requested by every request parsed in this turn leave together. */
const deferToCheckPhase: Defer = (task) => {
  const immediate = setImmediate(task);
  return () => clearImmediate(immediate);
};

/**
 * Writes an answer given before the app (http/answer/resolve-repeats.ts). It has been counted and
 * logged: should writing it fail, the request is cut off rather than handed to the app, which would
 * answer and count it again.
 */
function write(response: ServerResponse, answer: RepeatAnswer, logger: Logger): void {
  try {
    response.writeHead(answer.status, answer.headers);
    response.end(answer.body);
  } catch (error) {
    cutOff(response, logger, error);
  }
}

function cutOff(response: ServerResponse, logger: Logger, error: unknown): void {
  try {
    logger.warn({ err: error }, "answer before the app failed; the request is cut off");
  } catch {
    // The answer is cut off all the same.
  }
  response.destroy();
}

/**
 * The Node listener's answer before the app (listener.ts): a repeat of a
 * `/resolve` request the app has validated, from the resolve cache or
 * resolved now (ResolveRepeats). A resolution counts and logs its request
 * itself and always settles with an answer.
 */
function repeatsBeforeApp(
  repeats: ResolveRepeats,
  config: GatewayConfig,
  logger: Logger,
): NonNullable<ListenerOptions["answerBeforeApp"]> {
  return (request, response) => {
    const key = nodeRequestKey(request);
    if (key === undefined) return false;
    const client = () =>
      clientKeyFrom(
        config.clientIpHeader ? incomingHeader(request, config.clientIpHeader) : undefined,
        () => request.socket.remoteAddress,
      );
    // A throw here leaves the request to the app: nothing has been counted or answered yet, bugs aside.
    const answer = repeats.respond(key, incomingHeader(request, "x-request-id"), client);
    if (!answer) return false;
    if (!(answer instanceof Promise)) write(response, answer, logger);
    else
      answer.then(
        (resolved) => write(response, resolved, logger),
        (error: unknown) => cutOff(response, logger, error),
      );
    return true;
  };
}

/**
 * The package version (package.json, three folders up from both src/platform/node and
 * dist/platform/node) and the commit when the environment names one (GIT_COMMIT), for `/ready`.
 */
export function nodeVersion(): { package: string; commit: string | null } {
  let version = "unknown";
  try {
    const manifest = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as {
      version?: unknown;
    };
    if (typeof manifest.version === "string") version = manifest.version;
  } catch {
    // Not packaged as the repository lays it out: the version is unknown, never made up.
  }
  const commit = process.env.GIT_COMMIT?.trim();
  return { package: version, commit: commit ? commit : null };
}

/** `tracing`: spans of requests, resolutions and RPC requests (telemetry/); absent: none, and nothing of it runs. */
export function nodePlatform(config: GatewayConfig, logger: Logger, tracing?: NodeTracing): Platform {
  const metrics = config.metrics ? new PrometheusTelemetry() : undefined;
  const transports = () =>
    createNodeTransports({
      allowPrivate: config.allowPrivateRpcOverride,
      ...(tracing && { interceptor: tracing.interceptor }),
    });
  return {
    telemetry: metrics,
    metrics,
    logger: tracing ? tracing.requestLogger(logger) : logger,
    transports: tracing ? () => tracing.transports(transports()) : transports,
    ...(tracing && { tracer: tracing.tracer }),
    accelerators: {
      defer: deferToCheckPhase,
      yieldToLoop: () => new Promise((resolve) => setImmediate(resolve)),
      settlePacing: nodeSettlePacing(config.rpcSettleSlice),
      requestHeader: nodeRequestHeader,
      requestKey: nodeContextRequestKey,
    },
    peerAddress: (c) => getConnInfo(c).remote.address,
    docsAssets: nodeDocsAssets(),
    version: nodeVersion(),
  };
}

/** The gateway on Node: undici transports with the connect-time DNS check, pino logs. */
export const createNodeGateway = (config: GatewayConfig, logger: Logger = pino({ level: config.logLevel })): Gateway =>
  createGateway(config, nodePlatform(config, logger));

export interface RunningGateway {
  readonly url: string;
  readonly server: Server;
  readonly gateway: Gateway;
  /** Stops accepting, lets in-flight requests finish (up to the grace period), then releases everything. */
  close(): Promise<void>;
}

/**
 * `platform` replaces parts of the Node platform (tests: a fixed clock);
 * `tracing` (telemetry/load-tracing.ts) traces requests, and `close` flushes its spans.
 */
export async function startGateway(
  config: GatewayConfig,
  logger?: Logger,
  platform?: Partial<Platform>,
  tracing?: NodeTracing,
): Promise<RunningGateway> {
  const log = logger ?? pino({ level: config.logLevel });
  const gateway = createGateway(config, { ...nodePlatform(config, log, tracing), ...platform });
  const repeats = gateway.resolveRepeats;
  const drainable = createDrainableServer({
    fetch: gateway.app.fetch,
    logger: gateway.logger,
    headersTimeoutMs: config.headersTimeoutMs,
    ...(tracing && { aroundRequest: tracing.aroundRequest }),
    ...(repeats && { answerBeforeApp: repeatsBeforeApp(repeats, config, gateway.logger) }),
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
      closing ??= drainable
        .drain(config.shutdownGraceMs)
        .then(() => gateway.dispose())
        // The spans still buffered are flushed however the rest of the close went.
        .finally(() => tracing?.shutdown(TRACES_FLUSH_MS));
      return closing;
    },
  };
}
