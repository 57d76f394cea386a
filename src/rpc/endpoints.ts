import { LRUCache } from "lru-cache";
import type { Dispatcher } from "undici";
import type { AccountLoaderOptions } from "./account-loader.js";
import { type RpcUrlPolicy, checkRpcOverride } from "./address-policy.js";
import { RpcEndpoint } from "./endpoint.js";
import { RpcEndpointRefusedError, RpcNotConfiguredError } from "./errors.js";
import { createHttpTransport, createPublicOnlyDispatcher, createTrustedDispatcher } from "./transport.js";

export interface EndpointsConfig {
  /** Operator-configured endpoint, trusted. */
  readonly rpcUrl: string | undefined;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly allowPrivateOverride: boolean;
  readonly loader: AccountLoaderOptions;
  /** Distinct `rpc` override endpoints kept warm; least recently used are dropped. */
  readonly maxOverrideEndpoints: number;
}

/**
 * Chooses the endpoint for a request: the `rpc` override when given (after
 * the address policy), else `RPC_URL`. Endpoint state is kept per URL.
 */
export class RpcEndpoints {
  private readonly trusted: Dispatcher = createTrustedDispatcher();
  private readonly publicOnly: Dispatcher;
  private readonly defaultEndpoint: RpcEndpoint | undefined;
  private readonly overrides: LRUCache<string, RpcEndpoint>;
  private readonly policy: RpcUrlPolicy;

  constructor(private readonly config: EndpointsConfig) {
    this.policy = { allowPrivate: config.allowPrivateOverride };
    this.publicOnly = config.allowPrivateOverride ? this.trusted : createPublicOnlyDispatcher();
    this.overrides = new LRUCache({ max: config.maxOverrideEndpoints });
    if (config.rpcUrl) this.defaultEndpoint = this.create(new URL(config.rpcUrl).href, this.trusted);
  }

  /** @throws RpcEndpointRefusedError, RpcNotConfiguredError */
  select(override: string | undefined): RpcEndpoint {
    if (override === undefined) {
      if (!this.defaultEndpoint) throw new RpcNotConfiguredError();
      return this.defaultEndpoint;
    }
    const url = checkRpcOverride(override, this.policy);
    if (!url) throw new RpcEndpointRefusedError("rpc override refused by policy");
    const key = url.href;
    if (this.defaultEndpoint && key === this.defaultEndpoint.url) return this.defaultEndpoint;
    let endpoint = this.overrides.get(key);
    if (!endpoint) {
      endpoint = this.create(key, this.publicOnly);
      this.overrides.set(key, endpoint);
    }
    return endpoint;
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.trusted.close(), this.publicOnly.close()]);
  }

  private create(url: string, dispatcher: Dispatcher): RpcEndpoint {
    const transport = createHttpTransport(url, {
      dispatcher,
      timeoutMs: this.config.timeoutMs,
      maxResponseBytes: this.config.maxResponseBytes,
    });
    return new RpcEndpoint(transport, this.config.loader);
  }
}
