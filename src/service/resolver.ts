import type { Address } from "@solana/kit";
import { SOL_TLD } from "../sns/constants.js";
import { SnsError } from "../sns/errors.js";
import type { FullDomain } from "../sns/domain.js";
import { RenewedMap } from "../sns/renewed-map.js";
import { type PdaPolicy, tldGate } from "../sns/queries/resolve.js";
import type { RpcEndpoint } from "../rpc/endpoint.js";
import { RpcBudgetError } from "../rpc/request-budget.js";
import { NO_TELEMETRY, type Telemetry } from "../telemetry.js";
import type { Tracer } from "../tracer.js";
import { AnswerCache, type CacheEntry, answerOf } from "./answer-cache.js";
import { type BulkResolvable, type Settled, resolveAll, yieldByTimer } from "./bulk-resolution.js";
import { agreed, sideOf } from "./cross-check.js";
import { HolderHintCache } from "./holder-hints.js";
import { Registry, type RegistryResolution, resolutionId, resolveInRegistry } from "./registry-resolution.js";
import { readOnlyHints, tracedTldGate } from "./traced-resolution.js";
import type { ResolutionSteps } from "../sns/resolution-steps.js";

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
  /** Lets other work run before going on (between resolveAll's slices of work); default: a zero-delay timer. */
  readonly yieldTurn?: () => Promise<void>;
  /** A span per resolution started (src/tracer.ts); none when absent. */
  readonly tracer?: Tracer;
}

const pendingOf = (resolution: { readonly pending: Promise<Address> }): Promise<Address> => resolution.pending;

/** A resolution under way, and the request view it reads through. */
interface InFlight {
  readonly pending: Promise<Address>;
  readonly starter: RpcEndpoint;
}

/**
 * Resolution with request coalescing (concurrent requests for one name on
 * one endpoint share a single resolution) and an optional short-lived cache
 * of answers (src/service/answer-cache.ts), refreshed ahead of expiry when
 * asked for late in their life. Many names at once: src/service/bulk-resolution.ts.
 */
export class Resolver implements BulkResolvable {
  /** Resolutions under way, each with the view of the request that started it (whose reads it makes). */
  private readonly inFlight = new RenewedMap<string, InFlight>();
  private readonly hints: HolderHintCache;
  private readonly answers: AnswerCache | undefined;
  /**
   * The entry the last cache hit answered from: a `resolve` that answers at
   * once (a string) answered from it, and its caller reads it before
   * anything else runs (`lastHit`). Kept here so a hit allocates nothing.
   */
  private hit: CacheEntry | undefined;
  /** Whether that hit started a refresh ahead of expiry. */
  private hitRefreshing = false;

  private readonly telemetry: Telemetry;
  private readonly clock: () => number;
  private readonly yieldTurn: () => Promise<void>;

  constructor(private readonly options: ResolverOptions) {
    this.telemetry = options.telemetry ?? NO_TELEMETRY;
    this.clock = options.clock ?? Date.now;
    this.yieldTurn = options.yieldTurn ?? yieldByTimer;
    this.hints = new HolderHintCache(options.holderTtlMs);
    this.answers =
      options.cacheTtlMs > 0
        ? new AnswerCache({
            ttlMs: options.cacheTtlMs,
            maxEntries: options.cacheMaxEntries,
            refreshAhead: options.refreshAhead,
            telemetry: this.telemetry,
            clock: this.clock,
          })
        : undefined;
  }

  get cacheTtlMs(): number {
    return this.options.cacheTtlMs;
  }

  /** SOL_SRS_RESOLUTION: whether a `.sol` name is resolved through its SRS record, not its `.sns` account. */
  get srsResolution(): boolean {
    return this.options.srs === true;
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
    this.hit = undefined;
    if (this.readsSrs(domain)) return this.shared(Registry.Srs, endpoint, domain.name);
    const trace = endpoint.budget?.trace;
    const gate = trace === undefined ? tldGate(endpoint, domain) : tracedTldGate(endpoint, domain, trace);
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
    this.hit = undefined;
    const srs = sideOf(() => this.shared(Registry.Srs, endpoint, domain.name));
    const srsHit = this.hit;
    const srsRefreshing = this.hitRefreshing;
    const sns = sideOf(() => this.shared(Registry.Sns, endpoint, domain.name));
    const name = `${domain.name}${SOL_TLD}`;
    if (!(srs instanceof Promise) && !(sns instanceof Promise)) {
      // Answered from both entries: it is as old as the older and read at the lower slot of the two.
      this.hit = olderOf(srsHit, this.hit);
      this.hitRefreshing ||= srsRefreshing;
      return agreed(name, srs, sns);
    }
    return Promise.all([srs, sns]).then(([a, b]) => agreed(name, a, b));
  }

  /** `resolve` (or, `safe`, `safeResolve`) for many names at once (src/service/bulk-resolution.ts). */
  resolveAll(endpoint: RpcEndpoint, domains: readonly FullDomain[], safe: boolean): Promise<Settled[]> {
    return resolveAll(this, endpoint, domains, safe, this.yieldTurn);
  }

  /** `resolve` without its TLD gate: the registry's answer, cached, shared or new. */
  resolvePastGate(endpoint: RpcEndpoint, domain: FullDomain): Address | Promise<Address> {
    return this.shared(this.readsSrs(domain) ? Registry.Srs : Registry.Sns, endpoint, domain.name);
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
    return this.answers?.lifetime(resolutionId(endpoint, domain.name, Registry.Srs)) ?? 0;
  }

  /**
   * The cache entry the answer `resolve` (or `safeResolve`) just gave at once
   * came from: read right after it returned a string, before anything else
   * runs (with SRS on, `safeResolve` of a `.sol` name answers from two
   * entries; this is the older of them, at the lower slot: `olderOf`).
   */
  get lastHit(): CacheEntry | undefined {
    return this.hit;
  }

  /** Whether answers are cached at all (RESOLVE_CACHE_TTL_MS): without a cache, `cachedEntry` never has one. */
  get cachesAnswers(): boolean {
    return this.answers !== undefined;
  }

  /** Whether the last cache hit (`lastHit`) started a refresh ahead of expiry. */
  get lastHitRefreshing(): boolean {
    return this.hitRefreshing;
  }

  /** Whole seconds since `entry` (or a request's oldest cached read, RequestBudget.cachedReadAt) was read (`Age`). */
  ageSeconds(entry: { readonly readAt: number }): number {
    return Math.max(0, Math.floor((this.clock() - entry.readAt) / 1000));
  }

  /**
   * Where the answer just given for `domain` was read: the cache entry that
   * holds it, counting nothing; undefined without a cache, or once gone.
   */
  answerEntry(endpoint: RpcEndpoint, domain: FullDomain): CacheEntry | undefined {
    const registry = this.readsSrs(domain) ? Registry.Srs : Registry.Sns;
    return this.answers?.peek(resolutionId(endpoint, domain.name, registry));
  }

  /**
   * The cache entry of a name when its outcome can be answered as it is: its
   * TLD gate open now and its entry not yet due for a refresh. Counted as a hit.
   * Undefined otherwise, counting nothing: `resolve` then does what the name
   * needs (read the cutoff slot, refresh ahead, resolve).
   */
  cachedEntry(endpoint: RpcEndpoint, domain: FullDomain): CacheEntry | undefined {
    const answers = this.answers;
    if (!answers) return undefined;
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
    return answers.answerableEntry(resolutionId(endpoint, domain.name, registry));
  }

  /**
   * A name's answer from one registry: cached, shared with a resolution in
   * flight, or a new one. Past the TLD gate `.sns` and `.sol` name the same
   * name-service accounts, so they share entries.
   */
  private shared(registry: Registry, endpoint: RpcEndpoint, name: string): Address | Promise<Address> {
    const id = resolutionId(endpoint, name, registry);
    const budget = endpoint.budget;
    const trace = budget?.trace;
    if (this.answers) {
      // A traced request reads the entry as it is: no refresh claimed, no recency or count changed.
      const cached = trace === undefined ? this.answers.lookup(id) : this.answers.servable(id);
      if (cached) {
        // Its slot and read time reach the answer whichever way it is given (after an await too).
        budget?.noteCachedRead(cached.readAt, cached.slot);
        this.hitRefreshing = trace === undefined && this.answers.claimRefresh(cached);
        if (this.hitRefreshing) this.refresh(registry, endpoint, name, id);
        trace?.cache(name, "hit", this.ageSeconds(cached), cached.slot);
        this.hit = cached;
        return answerOf(cached.outcome);
      }
    }
    const shared = this.inFlight.get(id);
    if (shared !== undefined) {
      this.telemetry.coalesced("resolution");
      if (trace) {
        trace.cache(name, "coalesced");
        trace.note(
          "coalesced: an answer came from a resolution another request started; its reads and steps are that request's and are not listed",
        );
      }
      return this.joined(shared, registry, endpoint, name, id);
    }
    trace?.cache(name, "miss");
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
    shared: InFlight,
    registry: Registry,
    endpoint: RpcEndpoint,
    name: string,
    id: string,
  ): Promise<Address> {
    // The joiner's answer came from the starter's reads: it notes their slot as its own.
    const noteSlot = () => endpoint.budget?.noteSlot(shared.starter.budget?.lowestSlot ?? Infinity);
    const answered = (key: Address): Address => {
      noteSlot();
      return key;
    };
    return shared.pending.then(answered, (error: unknown) => {
      // A protocol answer (a missing domain) was read from the chain too.
      if (error instanceof SnsError) noteSlot();
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

  /**
   * One resolution in the background, unless one is under way; its answer
   * replaces the entry (a failure leaves it to expire).
   */
  private refresh(registry: Registry, endpoint: RpcEndpoint, name: string, id: string): void {
    if (this.inFlight.has(id)) return;
    this.telemetry.resolveCache("refresh");
    // Fire and forget: the request that asked answers from the entry, and `start` handles both outcomes itself
    // (a cache is there whenever an entry is, so its handler catches a failure).
    void this.start(registry, endpoint, name, id);
  }

  /** A new resolution, shared while in flight (up to `maxCoalesced` at once) and its answer cached. */
  private start(registry: Registry, endpoint: RpcEndpoint, name: string, id: string): Promise<Address> {
    const { tracer } = this.options;
    const trace = endpoint.budget?.trace;
    const { pending, validUntil } = tracer
      ? tracer.resolution(
          registry === Registry.Srs ? "srs" : "sns",
          name,
          () => this.read(registry, endpoint, name, trace),
          pendingOf,
        )
      : this.read(registry, endpoint, name, trace);
    // A traced resolution is its request's own: neither shared nor kept, so later answers are as without it.
    if (trace !== undefined) return pending;
    if (this.inFlight.size < this.options.maxCoalesced) {
      const entry: InFlight = { pending, starter: endpoint };
      this.inFlight.set(id, entry);
      // Only itself: a retry of a joiner (`joined`) may have taken its place already.
      const forget = () => {
        if (this.inFlight.get(id) === entry) this.inFlight.delete(id);
      };
      pending.then(forget, forget);
    }
    // The slot: the lowest the starting request has read by then (all of them when it reads one name).
    this.answers?.keep(id, pending, validUntil, () => endpoint.budget?.lowestSlot ?? Infinity);
    return pending;
  }

  /** The reads of one resolution, under way. */
  /** Resolves `name` in `registry`; a traced request (`trace`) records its steps and writes no holder hint. */
  private read(
    registry: Registry,
    endpoint: RpcEndpoint,
    name: string,
    trace: ResolutionSteps | undefined,
  ): RegistryResolution {
    const hints = this.hints.for(endpoint.url);
    return resolveInRegistry(registry, endpoint, name, {
      pda: this.options.pda,
      hints: trace === undefined ? hints : readOnlyHints(hints),
      clock: this.clock,
      steps: trace,
    });
  }
}

/**
 * Of two entries one answer came from, the one that says it: its slot the
 * lower of theirs and its read time the older (a new entry only when each
 * is lower in one of them).
 */
function olderOf(a: CacheEntry | undefined, b: CacheEntry | undefined): CacheEntry | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  if (a.slot <= b.slot && a.readAt <= b.readAt) return a;
  if (b.slot <= a.slot && b.readAt <= a.readAt) return b;
  return { ...a, slot: Math.min(a.slot, b.slot), readAt: Math.min(a.readAt, b.readAt) };
}
