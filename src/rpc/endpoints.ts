import { LRUCache } from "lru-cache";
import type { AccountLoaderOptions } from "./account-loader.js";
import { type RpcUrlPolicy, checkRpcOverride, overrideRefusal } from "./address-policy.js";
import { ByteBudget } from "./byte-budget.js";
import { RpcEndpoint } from "./endpoint.js";
import { RpcEndpointRefusedError, RpcNotConfiguredError } from "./errors.js";
import type { CutoffState } from "./sol-cutoff-gate.js";
import type { BudgetLimits } from "./request-budget.js";
import type { RpcTransport, TransportFactory, TransportLimits } from "./transport/contract.js";
import { instrumentTransport } from "./transport/instrumented.js";
import type { EndpointHealth } from "./failover/endpoint-health.js";
import { createFailoverTransport } from "./failover/failover-transport.js";
import { NO_TELEMETRY, type RpcEndpointLabel, type Telemetry } from "../telemetry.js";

/** How much memory RPC answers may take, and where it is shared. */
export interface AnswerMemory {
  /** Largest single answer from `RPC_URL`. */
  readonly trustedAnswerBytes: number;
  /** Bytes of answers from `RPC_URL` held at once. */
  readonly trustedInFlightBytes: number;
  /** Largest single answer from an `rpc` override, and what one override endpoint may hold at once. */
  readonly overrideAnswerBytes: number;
  /** Bytes of answers held at once by all override endpoints together. */
  readonly overridesInFlightBytes: number;
  /** Encoded bytes allowed per account in a getMultipleAccounts answer. */
  readonly bytesPerAccount: number;
}

export interface OverridePolicy {
  /** `RPC_OVERRIDE=off` refuses every `rpc` parameter. */
  readonly enabled: boolean;
  /** When set, only these host names may be named by `rpc` (after the address policy). */
  readonly allowedHosts: ReadonlySet<string> | undefined;
  /** `ALLOW_PRIVATE_RPC_OVERRIDE`: lifts the address policy (local testing). */
  readonly allowPrivate: boolean;
}

export interface EndpointsConfig {
  /** Operator-configured endpoints, trusted: none, one, or several in order of preference. */
  readonly rpcUrls: readonly string[];
  readonly timeoutMs: number;
  /** With several `rpcUrls`: a read unanswered after this long also goes to the next endpoint; 0: off. */
  readonly hedgeMs?: number;
  /**
   * With several `rpcUrls`: their health, in the same order, shared by every
   * set of endpoints built from this configuration (on Workers, one per
   * request).
   */
  readonly health?: readonly EndpointHealth[];
  readonly memory: AnswerMemory;
  readonly override: OverridePolicy;
  readonly loader: AccountLoaderOptions;
  /** What one request may cause on `RPC_URL`, and on an `rpc` override (request-budget.ts). */
  readonly budgets: { readonly trusted: BudgetLimits; readonly override: BudgetLimits };
  /** Distinct `rpc` override endpoints kept warm; least recently used are dropped. */
  readonly maxOverrideEndpoints: number;
  /** Where RPC requests, calls, batches and queue depth are reported; none when absent. */
  readonly telemetry?: Telemetry;
  /** How this platform reaches endpoints. */
  readonly transports: TransportFactory;
  /**
   * `.sol` cutoff knowledge per endpoint URL, when it must outlive these
   * endpoints (Workers build endpoints per request); plain data only.
   */
  readonly cutoffMemory?: CutoffMemory;
}

/** Where `.sol` cutoff knowledge is kept, by endpoint URL. */
export interface CutoffMemory {
  get(url: string): CutoffState | undefined;
  set(url: string, state: CutoffState): unknown;
}

/** What the HTTP layer needs to pick a request's endpoint. */
export interface EndpointSelector {
  /** @throws RpcEndpointRefusedError, RpcNotConfiguredError */
  select(override: string | undefined): RpcEndpoint;
  /** Whether `override` names `RPC_URL` itself: `select` then gives the configured endpoint (see `namesConfiguredOf`). */
  namesConfigured(override: string): boolean;
  /** Bytes of RPC answers held right now, all endpoints together. */
  readonly answerBytesInFlight: number;
}

/**
 * Whether an `rpc` override names the one configured URL (as `select` reads
 * it): such a request is the configured endpoint's (its reads, coalescing
 * and cache are `RPC_URL`'s), so it is budgeted and counted as a request
 * without `rpc` is. With several `RPC_URL`s none is: the configured endpoint
 * is their set.
 */
export function namesConfiguredOf(rpcUrls: readonly string[]): (override: string) => boolean {
  if (rpcUrls.length !== 1) return () => false;
  const configured = new URL(rpcUrls[0]!).href;
  return (override) => {
    try {
      return new URL(override).href === configured;
    } catch {
      return false;
    }
  };
}

/**
 * Chooses the endpoint for a request: the `rpc` override when given (after
 * the override policy), else `RPC_URL`. Endpoint state is kept per URL.
 * Answer memory is budgeted in two pools under one process-wide budget, so
 * override endpoints, however abusive, cannot take what `RPC_URL` needs.
 */
export class RpcEndpoints implements EndpointSelector {
  private readonly defaultEndpoint: RpcEndpoint | undefined;
  private readonly overrides: LRUCache<string, RpcEndpoint>;
  private readonly policy: RpcUrlPolicy;
  private readonly trustedPool: ByteBudget;
  private readonly overridePool: ByteBudget;
  readonly namesConfigured: (override: string) => boolean;

  constructor(private readonly config: EndpointsConfig) {
    this.namesConfigured = namesConfiguredOf(config.rpcUrls);
    const { memory, override } = config;
    this.policy = { allowPrivate: override.allowPrivate };
    this.overrides = new LRUCache({ max: config.maxOverrideEndpoints });
    const whole = new ByteBudget(memory.trustedInFlightBytes + memory.overridesInFlightBytes);
    this.trustedPool = new ByteBudget(memory.trustedInFlightBytes, whole);
    this.overridePool = new ByteBudget(memory.overridesInFlightBytes, whole);
    const urls = config.rpcUrls.map((url) => new URL(url).href);
    if (urls.length === 1) {
      this.defaultEndpoint = this.create(urls[0]!, "trusted", this.trustedPool, memory.trustedAnswerBytes);
    } else if (urls.length > 1) {
      if (config.health?.length !== urls.length) throw new Error("several RPC URLs need their health");
      const health = config.health;
      const members = urls.map((url, i) => ({
        transport: this.transport(url, "trusted", this.trustedPool, memory.trustedAnswerBytes),
        health: health[i]!,
      }));
      // The set's key (its `url`): `.sol` cutoff knowledge and the tokenized index belong to the set.
      const transport = createFailoverTransport(urls.join(","), members, {
        timeoutMs: config.timeoutMs,
        hedgeMs: config.hedgeMs ?? 0,
        telemetry: config.telemetry ?? NO_TELEMETRY,
      });
      this.defaultEndpoint = this.endpointOver(transport, memory.trustedAnswerBytes, "trusted");
    }
  }

  /** The `RPC_URL` endpoint, when one is configured. */
  get trustedEndpoint(): RpcEndpoint | undefined {
    return this.defaultEndpoint;
  }

  /** Bytes of RPC answers held right now, all endpoints together. */
  get answerBytesInFlight(): number {
    return this.trustedPool.inUse + this.overridePool.inUse;
  }

  /** @throws RpcEndpointRefusedError, RpcNotConfiguredError */
  select(override: string | undefined): RpcEndpoint {
    if (override === undefined) {
      if (!this.defaultEndpoint) throw new RpcNotConfiguredError();
      return this.defaultEndpoint;
    }
    const { enabled, allowedHosts } = this.config.override;
    if (!enabled) throw new RpcEndpointRefusedError("rpc overrides are turned off");
    const url = checkRpcOverride(override, this.policy);
    if (!url) {
      // The rule broken, in words that quote nothing of the URL (address-policy.ts).
      throw new RpcEndpointRefusedError(`rpc override refused by policy: ${overrideRefusal(override, this.policy)}`);
    }
    if (allowedHosts && !allowedHosts.has(url.hostname.toLowerCase().replace(/\.$/, ""))) {
      throw new RpcEndpointRefusedError("rpc override host is not on the allow-list");
    }
    const key = url.href;
    if (this.defaultEndpoint && key === this.defaultEndpoint.url) return this.defaultEndpoint;
    let endpoint = this.overrides.get(key);
    if (!endpoint) {
      const { overrideAnswerBytes } = this.config.memory;
      const own = new ByteBudget(overrideAnswerBytes, this.overridePool);
      endpoint = this.create(key, "override", own, overrideAnswerBytes);
      this.overrides.set(key, endpoint);
    }
    return endpoint;
  }

  close(): Promise<void> {
    return this.config.transports.close();
  }

  private create(url: string, kind: "trusted" | "override", budget: ByteBudget, maxResponseBytes: number): RpcEndpoint {
    return this.endpointOver(this.transport(url, kind, budget, maxResponseBytes), maxResponseBytes, kind);
  }

  private transport(
    url: string,
    kind: "trusted" | "override",
    budget: ByteBudget,
    maxResponseBytes: number,
  ): RpcTransport {
    const telemetry = this.config.telemetry ?? NO_TELEMETRY;
    const limits: TransportLimits = { timeoutMs: this.config.timeoutMs, maxResponseBytes, budget };
    const plain: RpcTransport = this.config.transports[kind](url, limits);
    const label: RpcEndpointLabel = kind === "trusted" ? "rpc_url" : "override";
    return telemetry === NO_TELEMETRY ? plain : instrumentTransport(plain, telemetry, label);
  }

  private endpointOver(transport: RpcTransport, maxResponseBytes: number, kind: "trusted" | "override"): RpcEndpoint {
    const telemetry = this.config.telemetry ?? NO_TELEMETRY;
    const sizing = { bytesPerAccount: this.config.memory.bytesPerAccount, maxAnswerBytes: maxResponseBytes };
    return new RpcEndpoint(
      transport,
      this.config.loader,
      sizing,
      this.cutoffStateFor(transport.url),
      telemetry,
      this.config.budgets[kind],
    );
  }

  private cutoffStateFor(url: string): CutoffState | undefined {
    const memory = this.config.cutoffMemory;
    if (!memory) return undefined;
    let state = memory.get(url);
    if (!state) memory.set(url, (state = { reached: false, openUntil: 0 }));
    return state;
  }
}
