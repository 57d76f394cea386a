import type { ExecutionContext } from "hono";
import { ConfigError, loadConfig } from "../../config.js";
import type { Gateway } from "../../gateway.js";
import type { EdgeCache } from "../../http/answer/edge-cache.js";
import { outsideAppAnswer } from "../../http/answer/outside-app.js";
import { createFetchTransports } from "../../rpc/transport/fetch.js";
import { type Bindings, INDEX_OBJECT_BINDING, settingsFrom } from "./bindings.js";
import { bundledDocsAssets } from "./bundled-docs-assets.js";
import { createConsoleLogger } from "./console-logger.js";
import { indexObjectClient, indexObjectName, isObjectNamespace } from "./index-object-client.js";
import swaggerUiBundle from "swagger-ui-dist/swagger-ui-bundle.js?gzip-base64";
import swaggerUiCss from "swagger-ui-dist/swagger-ui.css?gzip-base64";

/** The /docs assets, decompressed on the first request for each (./bundled-docs-assets.ts). */
const docsAssets = bundledDocsAssets({ "swagger-ui-bundle.js": swaggerUiBundle, "swagger-ui.css": swaggerUiCss });

/** The Workers runtime's Cache API (no dependency on its type package); the gateway uses its default cache. */
declare const caches: { readonly default: EdgeCache };

/** The Durable Object class that keeps the tokenized index (wrangler.toml binds it as TOKENIZED_INDEX_OBJECT). */
export { TokenizedIndexObject } from "./tokenized-index-object.js";

interface Built {
  readonly gateway: Gateway;
}

/**
 * Built on the first request of an isolate (bindings are known only then)
 * and kept: the app, the routes and plain data (answer cache, `.sol` cutoff
 * knowledge). RPC endpoints and their loaders are built per request.
 */
let built: Built | ConfigError | undefined;

/**
 * The gateway's modules, loaded on the first request: workerd refuses some
 * of what their dependencies do at module scope (cockatiel creates an
 * AbortController at import), and a dynamic import of a bundled module runs
 * its top-level code when first imported, inside a handler. Each request
 * awaits its own import (Workers may not share a promise between requests);
 * the module is kept once loaded.
 */
let gatewayModule: typeof import("../../gateway.js") | undefined;

/** Set by the bundler (scripts/worker-bundle.mjs) to package.json's version. */
declare const __SNS_GATEWAY_VERSION__: string | undefined;

/** The package version the bundle was built from, and the commit when a `GIT_COMMIT` var names one (for `/ready`). */
function workerVersion(bindings: Bindings): { package: string; commit: string | null } {
  const version = typeof __SNS_GATEWAY_VERSION__ === "string" ? __SNS_GATEWAY_VERSION__ : "unknown";
  const commit = (bindings as Record<string, unknown>).GIT_COMMIT;
  return { package: version, commit: typeof commit === "string" && commit.trim() !== "" ? commit.trim() : null };
}

async function gatewayFor(bindings: Bindings): Promise<Built | ConfigError> {
  if (built) return built;
  gatewayModule ??= await import("../../gateway.js");
  if (built) return built;
  const { createGateway, indexWaitMs } = gatewayModule;
  try {
    const config = loadConfig(settingsFrom(bindings));
    // The object answers within the index's wait (as on Node); past a little more, the Worker scans.
    const indexClient = indexObjectClient(indexObjectName(config.rpcUrls), indexWaitMs(config) + 500);
    const gateway = createGateway(config, {
      logger: createConsoleLogger(config.logLevel),
      transports: createFetchTransports,
      // Set by Cloudflare's edge (and by workerd's local server) to the client's address.
      peerAddress: (c) => c.req.header("cf-connecting-ip"),
      endpointsPerRequest: true,
      version: workerVersion(bindings),
      docsAssets,
      // `resolve` answers are shared by the isolates of a location (http/answer/edge-cache.ts).
      edgeCache: caches.default,
      // Bound: `/domains` on RPC_URL asks the index object; unbound, it scans.
      remoteTokenizedIndex: (c) => {
        const namespace = (c.env as Bindings | undefined)?.[INDEX_OBJECT_BINDING];
        return isObjectNamespace(namespace) ? indexClient(namespace) : undefined;
      },
    });
    built = { gateway };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    built = error;
  }
  return built;
}

const misconfigured = (error: ConfigError) => outsideAppAnswer(500, error.message);

export default {
  async fetch(request: Request, bindings: Bindings, ctx: ExecutionContext): Promise<Response> {
    const state = built ?? (await gatewayFor(bindings));
    if (state instanceof ConfigError) return misconfigured(state);
    return state.gateway.app.fetch(request, bindings, ctx);
  },
};
