import type { Address } from "@solana/kit";
import { LRUCache } from "lru-cache";
import { SOL_TLD } from "../sns/constants.js";
import type { FullDomain } from "../sns/domain.js";
import { SnsError } from "../sns/errors.js";
import {
  type HolderHints,
  type PdaPolicy,
  assertSameTarget,
  deriveResolutionKeys,
  resolveSnsName,
  tldGate,
} from "../sns/queries/resolve.js";
import { resolveSrsName, srsExpired } from "../sns/queries/srs.js";
import type { RpcEndpoint } from "../rpc/endpoint.js";
import { RpcBudgetError } from "../rpc/request-budget.js";
import { gatheredReads } from "../rpc/gathered-reads.js";
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
  /** SOL_SRS_RESOLUTION: `.sol` names resolve through their SRS record (and `safeResolve` cross-checks). */
  readonly srs?: boolean;
  /** The host's clock in milliseconds (SRS expiry, cache ages); Date.now when absent. */
  readonly clock?: () => number;
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
  /** When the SRS record it was decided from expires (clock ms); Infinity: never. Never served from then on. */
  readonly validUntil: number;
}

/**
 * Which registry a shared or cached resolution reads: the name service
 * (`.sns`, and `.sol` past its TLD gate while SRS is off) or the SRS record
 * of a `.sol` name.
 */
const Registry = { Sns: 0, Srs: 1 } as const;
type Registry = (typeof Registry)[keyof typeof Registry];

/** One side of a cross-check: its key or whatever it failed with (an RPC fault too). */
type SideOutcome = { readonly ok: true; readonly key: Address } | { readonly ok: false; readonly error: unknown };
type Side = SideOutcome | Promise<SideOutcome>;

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
  private readonly clock: () => number;
  private readonly yieldTurn: () => Promise<void>;

  constructor(private readonly options: ResolverOptions) {
    this.telemetry = options.telemetry ?? NO_TELEMETRY;
    this.clock = options.clock ?? Date.now;
    this.yieldTurn = options.yieldTurn ?? yieldByTimer;
    // ttlResolution 0: lru-cache otherwise memoizes "now" until a timer clears it, and Workers drop a
    // request's timers when it ends, so on workerd entries never aged (no expiry ever seen).
    this.holders =
      options.holderTtlMs > 0
        ? new LRUCache({ ...HINTS_BOUND, ttl: options.holderTtlMs, ttlResolution: 0 })
        : undefined;
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
   * `/resolve` of one name: with SRS on, a `.sol` name through its SRS record
   * alone; otherwise the name service, past the TLD gate. A cache hit is
   * answered at once: the key, or its protocol error thrown. A name whose TLD
   * gate is open (`.sns`; `.sol` while the cutoff is known not reached, or
   * with SRS on) goes on without an async frame and promise that each
   * request in flight would hold.
   */
  resolve(endpoint: RpcEndpoint, domain: FullDomain): Address | Promise<Address> {
    if (this.readsSrs(domain)) return this.shared(Registry.Srs, endpoint, domain.name);
    const gate = tldGate(endpoint, domain);
    if (!gate) return this.shared(Registry.Sns, endpoint, domain.name);
    return gate.then(() => this.shared(Registry.Sns, endpoint, domain.name));
  }

  /**
   * `/safe-resolve`: with SRS on, a `.sol` name must resolve to the same key
   * through its SRS record and through the name service (no TLD gate); both
   * are read at once (one batch when neither is cached). When both fail, the
   * SRS side's error is the answer, so one chain state always gives one
   * answer. Anything else resolves as `resolve` does.
   */
  safeResolve(endpoint: RpcEndpoint, domain: FullDomain): Address | Promise<Address> {
    if (!this.readsSrs(domain)) return this.resolve(endpoint, domain);
    const srs = this.side(Registry.Srs, endpoint, domain.name);
    const sns = this.side(Registry.Sns, endpoint, domain.name);
    const name = `${domain.name}${SOL_TLD}`;
    if (!(srs instanceof Promise) && !(sns instanceof Promise)) return agreed(name, srs, sns);
    return Promise.all([srs, sns]).then(([a, b]) => agreed(name, a, b));
  }

  /**
   * `resolve` (or, `safe`, `safeResolve`) for many names at once, with the
   * same answer for each: every name's first reads are requested in this
   * one call, so the batching loader sends them together. A `.sol` name
   * waiting for the cutoff slot is resolved alongside that read instead of
   * after it (its accounts are the `.sns` name's, so nothing is read that
   * the answer could not need), and the gate still decides first: past the
   * cutoff, `Unsupported TLD` whatever the resolution found. Reads that
   * follow up on others wait until none of this call's reads is in flight
   * (rpc/gathered-reads.ts), so they too fill calls of 100 keys. Settled
   * outcomes, in `domains` order; a failure is what the GET route's call
   * would have thrown.
   */
  async resolveAll(endpoint: RpcEndpoint, domains: readonly FullDomain[], safe: boolean): Promise<Settled[]> {
    await this.deriveInSlices(domains);
    // Follow-up reads (NFT holders' token accounts, PDA owners) leave together, in full getMultipleAccounts calls.
    const chain = gatheredReads(endpoint, this.yieldTurn);
    return Promise.all(
      domains.map((domain) =>
        settle(() =>
          safe && this.readsSrs(domain) ? this.safeResolve(chain, domain) : this.resolveReadingAhead(chain, domain),
        ),
      ),
    );
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

  /** `resolve`, with a gated name's resolution started alongside its slot read. */
  private resolveReadingAhead(endpoint: RpcEndpoint, domain: FullDomain): Address | Promise<Address> {
    if (this.readsSrs(domain)) return this.shared(Registry.Srs, endpoint, domain.name);
    const gate = tldGate(endpoint, domain);
    if (!gate) return this.shared(Registry.Sns, endpoint, domain.name);
    const early = settle(() => this.shared(Registry.Sns, endpoint, domain.name));
    return gate.then(() => early.then(unsettle));
  }

  /** Whether `domain` is resolved through its SRS record (and cross-checked by `safeResolve`). */
  readsSrs(domain: FullDomain): boolean {
    return this.options.srs === true && domain.tld === SOL_TLD;
  }

  /**
   * How much longer (ms) the answer just given for `domain` may be kept by a
   * shared cache: Infinity for answers that do not come from an expiring SRS
   * record, the time left before the record expires for those that do, and
   * 0 when that is not known (no cache entry holds it).
   */
  answerLifetime(endpoint: RpcEndpoint, domain: FullDomain): number {
    if (!this.readsSrs(domain)) return Infinity;
    const entry = this.cache?.peek(resolutionId(endpoint, domain.name, Registry.Srs));
    return entry ? Math.max(0, entry.validUntil - this.clock()) : 0;
  }

  private side(registry: Registry, endpoint: RpcEndpoint, name: string): Side {
    try {
      const key = this.shared(registry, endpoint, name);
      if (typeof key === "string") return { ok: true, key };
      return key.then(
        (resolved): SideOutcome => ({ ok: true, key: resolved }),
        (error: unknown): SideOutcome => ({ ok: false, error }),
      );
    } catch (error) {
      return { ok: false, error };
    }
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
    const registry = this.readsSrs(domain) ? Registry.Srs : Registry.Sns;
    let gate: Promise<void> | undefined;
    try {
      gate = registry === Registry.Srs ? undefined : tldGate(endpoint, domain);
    } catch {
      return undefined;
    }
    if (gate) {
      // The slot read it started is shared with the `resolve` that follows; this view of it is not awaited.
      gate.catch(() => undefined);
      return undefined;
    }
    const entry = cache.get(resolutionId(endpoint, domain.name, registry));
    // An answer bound to an SRS expiry needs its shared lifetime worked out: the app does that.
    if (!entry || entry.refreshAt <= this.clock() || entry.validUntil !== Infinity) return undefined;
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

  /**
   * A name's answer from one registry: cached, shared with a resolution in
   * flight, or a new one. Past the TLD gate `.sns` and `.sol` name the same
   * name-service accounts, so they share entries.
   */
  private shared(registry: Registry, endpoint: RpcEndpoint, name: string): Address | Promise<Address> {
    const id = resolutionId(endpoint, name, registry);
    if (this.cache) {
      let cached = this.cache.get(id);
      if (cached && cached.validUntil <= this.clock()) {
        this.cache.delete(id);
        cached = undefined;
      }
      this.telemetry.resolveCache(cached ? "hit" : "miss");
      if (cached) {
        if (cached.refreshAt <= this.clock()) this.refresh(registry, endpoint, name, id, cached);
        const { outcome } = cached;
        if (outcome.ok) return outcome.key;
        throw outcome.error;
      }
    }
    const shared = this.inFlight.get(id);
    if (shared) {
      this.telemetry.coalesced("resolution");
      return this.joined(shared, registry, endpoint, name, id);
    }
    return this.start(registry, endpoint, name, id);
  }

  /**
   * A resolution under way, as a request that joined it sees it. The
   * resolution reads through the view of the request that started it and
   * pays from that request's budget (and its client's allowance): when that
   * runs out, the resolution fails with that request's budget error, which
   * is not the joiner's to answer. A joiner whose own budget is not spent
   * then goes on with its own: it joins the resolution that replaced the
   * failed one, or starts one, paying for it itself. Each retry follows
   * another request's budget running out, so there are no more of them
   * than requests sharing the name, and the joiner's own deadline ends them.
   */
  private joined(
    shared: Promise<Address>,
    registry: Registry,
    endpoint: RpcEndpoint,
    name: string,
    id: string,
  ): Promise<Address> {
    return shared.catch((error: unknown) => {
      const own = endpoint.budget;
      if (
        !(error instanceof RpcBudgetError) ||
        own === undefined ||
        own.exhausted !== undefined ||
        error === own.exhausted
      )
        throw error;
      const again = this.inFlight.get(id);
      if (again && again !== shared) return this.joined(again, registry, endpoint, name, id);
      return this.start(registry, endpoint, name, id);
    });
  }

  /** One resolution in the background; its answer replaces the entry (a failure leaves it to expire). */
  private refresh(registry: Registry, endpoint: RpcEndpoint, name: string, id: string, entry: CacheEntry): void {
    entry.refreshAt = Infinity;
    if (!this.options.refreshAhead || this.inFlight.has(id)) return;
    this.telemetry.resolveCache("refresh");
    this.start(registry, endpoint, name, id);
  }

  private start(registry: Registry, endpoint: RpcEndpoint, name: string, id: string): Promise<Address> {
    let validUntil = Infinity;
    let pending: Promise<Address>;
    if (registry === Registry.Sns) {
      pending = resolveSnsName(endpoint, name, this.options.pda, this.hintsFor(endpoint.url));
    } else {
      let expiry = 0n;
      // Whatever was decided from an unexpired record is answered only while it still is: a
      // resolution that settles (or is joined) after the expiry answers that the name expired.
      const current = (): void => {
        if (validUntil <= this.clock()) throw srsExpired(name, expiry);
      };
      pending = resolveSrsName(endpoint, name, {
        pda: this.options.pda,
        hints: this.hintsFor(endpoint.url),
        nowSeconds: () => Math.floor(this.clock() / 1000),
        onExpiry: (at) => {
          expiry = at;
          validUntil = Number(at) * 1000;
        },
      }).then(
        (key) => {
          current();
          return key;
        },
        (error: unknown) => {
          current();
          throw error;
        },
      );
    }
    if (this.inFlight.size < this.options.maxCoalesced) {
      this.inFlight.set(id, pending);
      // Only itself: a retry of a joiner (`joined`) may have taken its place already.
      const forget = () => {
        if (this.inFlight.get(id) === pending) this.inFlight.delete(id);
      };
      pending.then(forget, forget);
    }
    if (this.cache) {
      const cache = this.cache;
      const keep = (outcome: Outcome) => {
        const now = this.clock();
        const ttl = Math.min(this.options.cacheTtlMs, validUntil - now);
        if (ttl <= 0) return;
        cache.set(id, { outcome, refreshAt: now + ttl * REFRESH_AHEAD_AT, validUntil }, { ttl: Math.ceil(ttl) });
      };
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

/** How a resolution of `resolveAll` ended: its key, or what the GET route's call would have thrown. */
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

/**
 * What a resolution is shared and cached under: the name per endpoint (past
 * the TLD gate), and the registry read. A URL holds no space, so an SRS id
 * (prefixed) never equals a name-service one.
 */
const resolutionId = (endpoint: RpcEndpoint, name: string, registry: Registry): string =>
  registry === Registry.Sns ? `${endpoint.url} ${name}` : `srs ${endpoint.url} ${name}`;

/** The answer of a cross-check: the SRS side's failure first, then the name service's, then the keys must agree. */
function agreed(name: string, srs: SideOutcome, sns: SideOutcome): Address {
  if (!srs.ok) throw srs.error;
  if (!sns.ok) throw sns.error;
  return assertSameTarget(name, sns.key, srs.key);
}
