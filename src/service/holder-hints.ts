import type { Address } from "@solana/kit";
import { LRUCache } from "lru-cache";
import type { HolderHints } from "../sns/queries/resolve.js";

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

/** Endpoints whose hint accessors are kept made: functions only, the hints themselves are in the LRU caches. */
const MAX_ENDPOINTS_KEPT = 64;

/**
 * What resolutions remember about tokenized domains, per endpoint: the last
 * holder token account of each (see HolderHints), and, for `holderTtlMs`
 * (NFT_HOLDER_TTL_MS), its NFT holder.
 */
export class HolderHintCache {
  private readonly holderAccounts = new LRUCache<string, Address>(HINTS_BOUND);
  private readonly holders: LRUCache<string, Address> | undefined;

  constructor(holderTtlMs: number) {
    // ttlResolution 0: lru-cache otherwise memoizes "now" until a timer clears it, and Workers drop a
    // request's timers when it ends, so on workerd entries never aged (no expiry ever seen).
    this.holders = holderTtlMs > 0 ? new LRUCache({ ...HINTS_BOUND, ttl: holderTtlMs, ttlResolution: 0 }) : undefined;
  }

  /**
   * Each endpoint's hints, made once: every resolution asks for them, and one made per resolution
   * (an object and its closures) is held while the resolution waits for its reads, so a collection
   * copies it (a bulk request has a thousand of them in flight).
   */
  private readonly byEndpoint = new Map<string, HolderHints>();

  /** The hints of the endpoint at `url`. */
  for(url: string): HolderHints {
    let hints = this.byEndpoint.get(url);
    if (hints === undefined) {
      // `rpc` overrides may name any number of endpoints: the made ones are forgotten together, not kept without bound.
      if (this.byEndpoint.size >= MAX_ENDPOINTS_KEPT) this.byEndpoint.clear();
      hints = this.make(url);
      this.byEndpoint.set(url, hints);
    }
    return hints;
  }

  private make(url: string): HolderHints {
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
}
