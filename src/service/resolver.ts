import type { Address } from "@solana/kit";
import { LRUCache } from "lru-cache";
import type { FullDomain } from "../sns/domain.js";
import { SnsError } from "../sns/errors.js";
import { type HolderHints, type PdaPolicy, resolveSnsName, tldGate } from "../sns/queries/resolve.js";
import type { RpcEndpoint } from "../rpc/endpoint.js";
import { NO_TELEMETRY, type Telemetry } from "../telemetry.js";

export interface ResolverOptions {
  readonly pda: PdaPolicy;
  /** 0 disables the response cache. */
  readonly cacheTtlMs: number;
  readonly cacheMaxEntries: number;
  /** Upper bound on distinct resolutions shared at once. */
  readonly maxCoalesced: number;
  /** How long a tokenized domain's NFT holder may be reused; 0: never. */
  readonly holderTtlMs: number;
  /** Where coalesced resolutions and cache hits/misses are reported; none when absent. */
  readonly telemetry?: Telemetry;
}

/**
 * Holder hints are keyed by endpoint URL and domain key. An override URL can be
 * kilobytes long, so the bound is on bytes too: ~2 MB for 10,000 hints on
 * `RPC_URL`, never more than 4 MB whatever the URLs (lru-cache's own
 * bookkeeping is about 100 bytes an entry).
 */
const HINTS_BOUND: LRUCache.Options<string, Address, unknown> = {
  max: 10_000,
  maxSize: 4 * 1024 * 1024,
  sizeCalculation: (value, key) => key.length + value.length + 100,
};

type Outcome = { readonly ok: true; readonly key: Address } | { readonly ok: false; readonly error: SnsError };

/**
 * Resolution with request coalescing (concurrent requests for one name on
 * one endpoint share a single resolution) and an optional short-lived cache
 * of answers. Only successes and "domain not found" are cached.
 */
export class Resolver {
  private readonly inFlight = new Map<string, Promise<Address>>();
  /** Last holder token account of tokenized domains, per endpoint (see HolderHints). */
  private readonly holderAccounts = new LRUCache<string, Address>(HINTS_BOUND);
  private readonly cache: LRUCache<string, Outcome> | undefined;
  /** NFT holders of tokenized domains, per endpoint, for NFT_HOLDER_TTL_MS. */
  private readonly holders: LRUCache<string, Address> | undefined;

  private readonly telemetry: Telemetry;

  constructor(private readonly options: ResolverOptions) {
    this.telemetry = options.telemetry ?? NO_TELEMETRY;
    this.holders = options.holderTtlMs > 0 ? new LRUCache({ ...HINTS_BOUND, ttl: options.holderTtlMs }) : undefined;
    this.cache =
      options.cacheTtlMs > 0
        ? new LRUCache({
            max: options.cacheMaxEntries,
            ttl: options.cacheTtlMs,
            // Keys hold request-supplied names: bound the bytes too.
            maxSize: 16 * 1024 * 1024,
            sizeCalculation: (_, id) => id.length + 128,
          })
        : undefined;
  }

  get cacheTtlMs(): number {
    return this.options.cacheTtlMs;
  }

  /** A name without a TLD gate goes on without an async frame and promise that each request in flight would hold. */
  resolve(endpoint: RpcEndpoint, domain: FullDomain): Promise<Address> {
    const gate = tldGate(endpoint, domain);
    if (!gate) return this.resolveName(endpoint, domain.name);
    return gate.then(() => this.resolveName(endpoint, domain.name));
  }

  private hintsFor(url: string): HolderHints {
    const accounts = this.holderAccounts;
    const holders = this.holders;
    return {
      get: (domainKey) => accounts.get(`${url} ${domainKey}`),
      set: (domainKey, tokenAccount) => accounts.set(`${url} ${domainKey}`, tokenAccount),
      delete: (domainKey) => accounts.delete(`${url} ${domainKey}`),
      ...(holders && {
        holders: {
          get: (domainKey) => holders.get(`${url} ${domainKey}`),
          set: (domainKey, holder) => holders.set(`${url} ${domainKey}`, holder),
          delete: (domainKey) => holders.delete(`${url} ${domainKey}`),
        },
      }),
    };
  }

  /** Past the TLD gate `.sns` and `.sol` name the same accounts, so they share entries. */
  private resolveName(endpoint: RpcEndpoint, name: string): Promise<Address> {
    const id = `${endpoint.url} ${name}`;
    if (this.cache) {
      const cached = this.cache.get(id);
      this.telemetry.resolveCache(cached ? "hit" : "miss");
      if (cached) return cached.ok ? Promise.resolve(cached.key) : Promise.reject(cached.error);
    }
    const shared = this.inFlight.get(id);
    if (shared) {
      this.telemetry.coalesced("resolution");
      return shared;
    }
    const pending = resolveSnsName(endpoint, name, this.options.pda, this.hintsFor(endpoint.url));
    if (this.inFlight.size < this.options.maxCoalesced) {
      this.inFlight.set(id, pending);
      const forget = () => this.inFlight.delete(id);
      pending.then(forget, forget);
    }
    if (this.cache) {
      const cache = this.cache;
      pending.then(
        (key) => cache.set(id, { ok: true, key }),
        (error: unknown) => {
          if (error instanceof SnsError && error.code === "DOMAIN_NOT_FOUND") cache.set(id, { ok: false, error });
        },
      );
    }
    return pending;
  }
}
