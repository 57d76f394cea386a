import type { Address } from "@solana/kit";
import { LRUCache } from "lru-cache";
import { SnsError } from "../sns/errors.js";
import type { Telemetry } from "../telemetry.js";

/** What a resolution found: the key, or the protocol error it is answered with. */
export type Outcome = { readonly ok: true; readonly key: Address } | { readonly ok: false; readonly error: SnsError };

/** An outcome in the cache; `refreshAt` goes to Infinity once a refresh has started. */
export interface CacheEntry {
  readonly outcome: Outcome;
  refreshAt: number;
  /** When the SRS record it was decided from expires (clock ms); Infinity: never. Never served from then on. */
  readonly validUntil: number;
  /** The lowest context slot of the reads it was decided from; Infinity when none said. */
  readonly slot: number;
  /** When it was decided (clock ms): the answers served from it are that old (`Age`). */
  readonly readAt: number;
}

/**
 * A cached answer hit past this share of its life is refreshed ahead: late
 * enough that a name asked for continuously is resolved about once per
 * 3/4 TTL rather than once per TTL, early enough that the refresh (one RPC
 * round trip) lands before the entry expires. Answers never get older than
 * the TTL: the entry still expires on time if the refresh fails.
 */
const REFRESH_AHEAD_AT = 0.75;

export interface AnswerCacheOptions {
  readonly ttlMs: number;
  readonly maxEntries: number;
  /** Whether an entry hit late in its life is due for a refresh ahead of expiry (see ResolverOptions). */
  readonly refreshAhead: boolean;
  readonly telemetry: Telemetry;
  readonly clock: () => number;
}

/**
 * A short-lived cache of resolution answers by resolution id, refreshed
 * ahead of expiry when asked for late in their life. Successes and protocol
 * answers (a missing domain, a malformed record: what the chain says, as
 * durable as a success) are kept; RPC faults never are.
 */
export class AnswerCache {
  private readonly entries: LRUCache<string, CacheEntry>;
  private readonly telemetry: Telemetry;
  private readonly clock: () => number;

  constructor(private readonly options: AnswerCacheOptions) {
    this.telemetry = options.telemetry;
    this.clock = options.clock;
    this.entries = new LRUCache({
      max: options.maxEntries,
      ttl: options.ttlMs,
      // ttlResolution 0: lru-cache otherwise memoizes "now" until a timer clears it, and Workers drop a
      // request's timers when it ends, so on workerd entries would never age.
      ttlResolution: 0,
      // Keys hold request-supplied names: bound the bytes too.
      maxSize: 16 * 1024 * 1024,
      // A cached failure holds its error's message too (no stack: SnsError captures none).
      sizeCalculation: ({ outcome }, id) => id.length + 128 + (outcome.ok ? 0 : 2 * outcome.error.message.length),
    });
  }

  /** The entry a request is answered from, counted as a hit or a miss; one past its SRS expiry is dropped. */
  lookup(id: string): CacheEntry | undefined {
    let cached = this.entries.get(id);
    if (cached && cached.validUntil <= this.clock()) {
      this.entries.delete(id);
      cached = undefined;
    }
    this.telemetry.resolveCache(cached ? "hit" : "miss");
    return cached;
  }

  /**
   * Whether a refresh of `entry`, just hit, is to start now: once, when the
   * entry is past its refresh point and refreshing ahead is on. A due entry
   * is not due again, refreshed or not.
   */
  claimRefresh(entry: CacheEntry): boolean {
    if (entry.refreshAt > this.clock()) return false;
    entry.refreshAt = Infinity;
    return this.options.refreshAhead;
  }

  /**
   * The outcome of `id` when it can be answered as it is: not yet due for a
   * refresh, and not bound to an SRS expiry (whose shared lifetime the app
   * works out). Counted as a hit; undefined otherwise, counting nothing.
   */
  answerableEntry(id: string): CacheEntry | undefined {
    const entry = this.entries.get(id);
    if (!entry || entry.refreshAt <= this.clock() || entry.validUntil !== Infinity) return undefined;
    this.telemetry.resolveCache("hit");
    return entry;
  }

  /**
   * The entry a traced request is answered from (`lookup`'s, unexpired by
   * its SRS record), read as it is: counting nothing, changing neither its
   * recency nor its refresh, dropping nothing.
   */
  servable(id: string): CacheEntry | undefined {
    const entry = this.entries.peek(id);
    return entry && entry.validUntil > this.clock() ? entry : undefined;
  }

  /** The entry of `id` as it is, counting nothing. */
  peek(id: string): CacheEntry | undefined {
    return this.entries.peek(id);
  }

  /** How much longer (ms) the answer of `id` holds; 0 when no entry holds it. */
  lifetime(id: string): number {
    const entry = this.entries.peek(id);
    return entry ? Math.max(0, entry.validUntil - this.clock()) : 0;
  }

  /**
   * Keeps what `pending` settles to, for the TTL or until `validUntil()`
   * (read once settled), whichever ends first, with the slot `slotOf()`
   * says it was read at (read once settled too).
   */
  keep(id: string, pending: Promise<Address>, validUntil: () => number, slotOf: () => number): void {
    const keep = (outcome: Outcome) => {
      const now = this.clock();
      const until = validUntil();
      const ttl = Math.min(this.options.ttlMs, until - now);
      if (ttl <= 0) return;
      const refreshAt = now + ttl * REFRESH_AHEAD_AT;
      const entry: CacheEntry = { outcome, refreshAt, validUntil: until, slot: slotOf(), readAt: now };
      this.entries.set(id, entry, { ttl: Math.ceil(ttl) });
    };
    pending.then(
      (key) => keep({ ok: true, key }),
      (error: unknown) => {
        if (error instanceof SnsError) keep({ ok: false, error });
      },
    );
  }
}

/** The key of an outcome, or its protocol error thrown. */
export function answerOf(outcome: Outcome): Address {
  if (outcome.ok) return outcome.key;
  throw outcome.error;
}
