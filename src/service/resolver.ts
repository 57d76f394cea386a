import type { Address } from "@solana/kit";
import { LRUCache } from "lru-cache";
import type { FullDomain } from "../sns/domain.js";
import { SnsError } from "../sns/errors.js";
import { type HolderHints, type PdaPolicy, deriveResolutionKeys, resolveSnsName, tldGate } from "../sns/queries/resolve.js";
import type { RpcEndpoint } from "../rpc/endpoint.js";
import { NO_TELEMETRY, type Telemetry } from "../telemetry.js";

export interface ResolverOptions {
  readonly pda: PdaPolicy;
  /** 0 disables the response cache. */
  readonly cacheTtlMs: number;
  /**
   * Whether a cached answer hit late in its life starts a new resolution in
   * the background, so names asked for often never expire in front of a
   * request. Off where no work may outlive the request that started it.
   */
  readonly refreshAhead: boolean;
  readonly cacheMaxEntries: number;
  /** Upper bound on distinct resolutions shared at once. */
  readonly maxCoalesced: number;
  /** How long a tokenized domain's NFT holder may be reused; 0: never. */
  readonly holderTtlMs: number;
  /** Where coalesced resolutions and cache hits/misses are reported; none when absent. */
  readonly telemetry?: Telemetry;
  /** Lets other work run before going on (resolveAll's derivation slices); default: a zero-delay timer. */
  readonly yieldTurn?: () => Promise<void>;
}

/** Longest a resolveAll derivation slice holds the event loop. */
const DERIVE_SLICE_MS = 8;

const yieldByTimer = (): Promise<void> => new Promise((resume) => setTimeout(resume, 0));

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

/** What a resolution found: the key, or the protocol error it is answered with. */
export type Outcome = { readonly ok: true; readonly key: Address } | { readonly ok: false; readonly error: SnsError };

/** An outcome in the cache; `refreshAt` goes to Infinity once a refresh has started. */
interface CacheEntry {
  readonly outcome: Outcome;
  refreshAt: number;
}

/**
 * A cached answer hit past this share of its life is refreshed ahead: late
 * enough that a name asked for continuously is resolved about once per
 * 3/4 TTL rather than once per TTL, early enough that the refresh (one RPC
 * round trip) lands before the entry expires. Answers never get older than
 * the TTL: the entry still expires on time if the refresh fails.
 */
const REFRESH_AHEAD_AT = 0.75;

/**
 * Resolution with request coalescing (concurrent requests for one name on
 * one endpoint share a single resolution) and an optional short-lived cache
 * of answers, refreshed ahead of expiry when asked for late in their life.
 * Successes and protocol answers (a missing domain, a malformed record: what
 * the chain says, as durable as a success) are cached; RPC faults never are.
 */
export class Resolver {
  private readonly inFlight = new Map<string, Promise<Address>>();
  /** Last holder token account of tokenized domains, per endpoint (see HolderHints). */
  private readonly holderAccounts = new LRUCache<string, Address>(HINTS_BOUND);
  private readonly cache: LRUCache<string, CacheEntry> | undefined;
  /** NFT holders of tokenized domains, per endpoint, for NFT_HOLDER_TTL_MS. */
  private readonly holders: LRUCache<string, Address> | undefined;

  private readonly telemetry: Telemetry;
  private readonly yieldTurn: () => Promise<void>;

  constructor(private readonly options: ResolverOptions) {
    this.telemetry = options.telemetry ?? NO_TELEMETRY;
    this.yieldTurn = options.yieldTurn ?? yieldByTimer;
    // ttlResolution 0: lru-cache otherwise memoizes "now" until a timer clears it, and Workers drop a
    // request's timers when it ends, so on workerd entries never aged (no expiry ever seen).
    this.holders = options.holderTtlMs > 0 ? new LRUCache({ ...HINTS_BOUND, ttl: options.holderTtlMs, ttlResolution: 0 }) : undefined;
    this.cache =
      options.cacheTtlMs > 0
        ? new LRUCache({
            max: options.cacheMaxEntries,
            ttl: options.cacheTtlMs,
            ttlResolution: 0,
            // Keys hold request-supplied names: bound the bytes too.
            maxSize: 16 * 1024 * 1024,
            // A cached failure holds its error's message too (no stack: SnsError captures none).
            sizeCalculation: ({ outcome }, id) => id.length + 128 + (outcome.ok ? 0 : 2 * outcome.error.message.length),
          })
        : undefined;
  }

  get cacheTtlMs(): number {
    return this.options.cacheTtlMs;
  }

  /**
   * A cache hit is answered at once: the key, or its protocol error thrown.
   * A name whose TLD gate is open (`.sns`; `.sol` while the cutoff is known
   * not reached) goes on without an async frame and promise that each
   * request in flight would hold.
   */
  resolve(endpoint: RpcEndpoint, domain: FullDomain): Address | Promise<Address> {
    const gate = tldGate(endpoint, domain);
    if (!gate) return this.resolveName(endpoint, domain.name);
    return gate.then(() => this.resolveName(endpoint, domain.name));
  }

  /**
   * `resolve` for many names at once, with the same answer for each: every
   * name's first reads are requested in this one call, so the batching
   * loader sends them together. A `.sol` name waiting for the cutoff slot
   * is resolved alongside that read instead of after it (its accounts are
   * the `.sns` name's, so nothing is read that the answer could not need),
   * and the gate still decides first: past the cutoff, `Unsupported TLD`
   * whatever the resolution found. Settled outcomes, in `domains` order;
   * a failure is whatever `resolve` would have thrown.
   */
  async resolveAll(endpoint: RpcEndpoint, domains: readonly FullDomain[]): Promise<Settled[]> {
    await this.deriveInSlices(domains);
    return Promise.all(domains.map((domain) => settle(() => this.resolveReadingAhead(endpoint, domain))));
  }

  /**
   * Derives the names' account keys into the derivation memo a slice of
   * time at a time, yielding to other requests in between: a new name costs
   * up to a millisecond of curve arithmetic, and a thousand at once would
   * hold the event loop for a second. The reads that follow then find every
   * key derived and are all requested within one turn.
   */
  private async deriveInSlices(domains: readonly FullDomain[]): Promise<void> {
    let sliceStart = performance.now();
    for (const domain of domains) {
      deriveResolutionKeys(domain.name);
      if (performance.now() - sliceStart >= DERIVE_SLICE_MS) {
        await this.yieldTurn();
        sliceStart = performance.now();
      }
    }
  }

  private resolveReadingAhead(endpoint: RpcEndpoint, domain: FullDomain): Address | Promise<Address> {
    const gate = tldGate(endpoint, domain);
    if (!gate) return this.resolveName(endpoint, domain.name);
    const early = settle(() => this.resolveName(endpoint, domain.name));
    return gate.then(() => early.then(unsettle));
  }

  /**
   * The cached outcome for a name when it can be answered as it is: its TLD
   * gate open now and its entry not yet due for a refresh. Counted as a hit.
   * Undefined otherwise, counting nothing: `resolve` then does what the name
   * needs (read the cutoff slot, refresh ahead, resolve).
   */
  cachedOutcome(endpoint: RpcEndpoint, domain: FullDomain): Outcome | undefined {
    const cache = this.cache;
    if (!cache) return undefined;
    let gate: Promise<void> | undefined;
    try {
      gate = tldGate(endpoint, domain);
    } catch {
      return undefined;
    }
    if (gate) {
      // The slot read it started is shared with the `resolve` that follows; this view of it is not awaited.
      gate.catch(() => undefined);
      return undefined;
    }
    const entry = cache.get(resolutionId(endpoint, domain.name));
    if (!entry || entry.refreshAt <= Date.now()) return undefined;
    this.telemetry.resolveCache("hit");
    return entry.outcome;
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
  private resolveName(endpoint: RpcEndpoint, name: string): Address | Promise<Address> {
    const id = resolutionId(endpoint, name);
    if (this.cache) {
      const cached = this.cache.get(id);
      this.telemetry.resolveCache(cached ? "hit" : "miss");
      if (cached) {
        if (cached.refreshAt <= Date.now()) this.refresh(endpoint, name, id, cached);
        const { outcome } = cached;
        if (outcome.ok) return outcome.key;
        throw outcome.error;
      }
    }
    const shared = this.inFlight.get(id);
    if (shared) {
      this.telemetry.coalesced("resolution");
      return shared;
    }
    return this.start(endpoint, name, id);
  }

  /** One resolution in the background; its answer replaces the entry (a failure leaves it to expire). */
  private refresh(endpoint: RpcEndpoint, name: string, id: string, entry: CacheEntry): void {
    entry.refreshAt = Infinity;
    if (!this.options.refreshAhead || this.inFlight.has(id)) return;
    this.telemetry.resolveCache("refresh");
    this.start(endpoint, name, id);
  }

  private start(endpoint: RpcEndpoint, name: string, id: string): Promise<Address> {
    const pending = resolveSnsName(endpoint, name, this.options.pda, this.hintsFor(endpoint.url));
    if (this.inFlight.size < this.options.maxCoalesced) {
      this.inFlight.set(id, pending);
      const forget = () => this.inFlight.delete(id);
      pending.then(forget, forget);
    }
    if (this.cache) {
      const cache = this.cache;
      const keep = (outcome: Outcome) =>
        cache.set(id, { outcome, refreshAt: Date.now() + this.options.cacheTtlMs * REFRESH_AHEAD_AT });
      pending.then(
        (key) => keep({ ok: true, key }),
        (error: unknown) => {
          if (error instanceof SnsError) keep({ ok: false, error });
        },
      );
    }
    return pending;
  }
}

/** How a resolution of `resolveAll` ended: its key, or what `resolve` would have thrown. */
export type Settled = { readonly ok: true; readonly key: Address } | { readonly ok: false; readonly error: unknown };

/** The outcome of `run`, whether it answers at once, throws, or settles later; never rejects. */
function settle(run: () => Address | Promise<Address>): Promise<Settled> {
  try {
    const answer = run();
    if (typeof answer === "string") return Promise.resolve({ ok: true, key: answer });
    return answer.then(
      (key): Settled => ({ ok: true, key }),
      (error: unknown): Settled => ({ ok: false, error }),
    );
  } catch (error) {
    return Promise.resolve({ ok: false, error });
  }
}

function unsettle(settled: Settled): Address {
  if (settled.ok) return settled.key;
  throw settled.error;
}

/** What a resolution is shared and cached under: past the TLD gate, the name per endpoint. */
const resolutionId = (endpoint: RpcEndpoint, name: string): string => `${endpoint.url} ${name}`;
