import type { AddressInfo } from "node:net";
import { ConfigError, loadConfig } from "../../config.js";
import { listenFailure } from "../../listen-failure.js";
import { hostLabels } from "../../rpc/failover/host-label.js";
import { nodeVersion, startGateway } from "./gateway.js";
import { createNodeLog } from "./log.js";
import { nodeLineWarning } from "./node-line.js";
import { loadTracing } from "./telemetry/load-tracing.js";
import { tracingSettingsFrom } from "./telemetry/tracing-settings.js";

/** Process entry: configuration from the environment, listen, drain on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  let config;
  let tracingSettings;
  try {
    config = loadConfig(process.env);
    tracingSettings = tracingSettingsFrom(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  const { logger, end } = createNodeLog(config.logLevel);
  const lineWarning = nodeLineWarning(process.version, new Date());
  if (lineWarning) logger.warn({ node: process.version }, lineWarning);
  if (config.rpcUrls.length === 0) logger.warn("RPC_URL is not set: only requests with an rpc parameter can resolve");
  const tracing = await loadTracing(tracingSettings, nodeVersion().package, logger);
  let running;
  try {
    running = await startGateway(config, logger, undefined, tracing);
  } catch (error) {
    const line = listenFailure(error, {
      port: config.port,
      host: config.host,
      portSetting: "PORT",
      hostSetting: "HOST",
    });
    if (line === undefined) throw error;
    await end();
    console.error(line);
    process.exit(1);
  }
  // What the socket is bound to (0.0.0.0: every address), and beside it a URL to open on this machine.
  const { address, port } = running.server.address() as AddressInfo;
  logger.info(
    { address, port, url: running.url, rpc: config.rpcUrls.length > 0 ? hostLabels(config.rpcUrls) : null },
    "listening",
  );
  if (tracing)
    logger.info(
      { collector: tracing.collector, service: tracing.serviceName },
      "tracing: spans exported over OTLP/HTTP",
    );

  const shutdown = (signal: string) => {
    logger.info({ signal }, "draining in-flight requests");
    // Every line logged before the exit is written, in order, before the process ends. A destination that
    // takes nothing for 2 s (a pipe nobody reads) has the rest dropped; the write already under way still
    // holds the exit until that pipe is read or closed (docs/operations.md).
    running.close().then(
      async () => {
        logger.info("stopped");
        await end();
        process.exit(0);
      },
      async (error: unknown) => {
        logger.error({ err: error }, "shutdown failed");
        await end();
        process.exit(1);
      },
    );
  };
  process.once("SIGTERM", () => shutdown("SIGTERM"));
  process.once("SIGINT", () => shutdown("SIGINT"));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
