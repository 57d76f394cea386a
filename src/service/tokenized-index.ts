import type { Address } from "@solana/kit";
import type { Logger } from "../logger.js";
import type { RpcEndpoint } from "../rpc/endpoint.js";
import { HttpStatusError, OverloadedError, RpcFailure, isMinContextSlotRefusal } from "../rpc/errors.js";
import { SlotBound } from "../rpc/slot-bound.js";
import { bytesToAddress } from "../sns/bytes.js";
import type { ChainReader } from "../sns/chain.js";
import { NAME_TOKENIZER_ID, NFT_RECORD_LEN } from "../sns/constants.js";
import { NftRecordTag, decodeNftRecord } from "../sns/layouts/nft-record.js";
import { type TokenizedDomainSource, findWalletMints, scanRecordsOfMints } from "../sns/queries/tokenized-domains.js";
import { NO_TELEMETRY, type Telemetry, type TokenizedIndexFallback, type TokenizedIndexState } from "../telemetry.js";
import { CompactRecordStore, RECORD_BYTES } from "./compact-records.js";
import type { IndexProgress, RecordsBuild, TokenizedRecordStore } from "./record-store.js";
import type { TraceContexts } from "../tracer.js";

/** Newest tokenizer signatures read per catch-up; a longer backlog means a rebuild. */
const BACKLOG_LIMIT = 200;
/** Transactions fetched together (they ride one JSON-RPC batch). */
const TRANSACTIONS_PER_ROUND = 10;
const COMMITMENT = "confirmed";
/** First-byte partitions of a bootstrap too large for one answer. */
const PARTITIONS = 256;
/**
 * Partition scans sent together (they ride one JSON-RPC batch). Sending all
 * 256 at once queues them on the node behind each other, and the last ones
 * miss the RPC deadline although each is cheap: the whole bootstrap failed
 * and was retried by the next request, again and again.
 */
const PARTITIONS_PER_ROUND = 16;
/** Slice of an NFT record from its name account to its mint: tag and nonce are known from the filter. */
const RECORD_SLICE = { offset: 2, length: NFT_RECORD_LEN - 2 };
/** Background retries after a failure wait 1 s, doubling up to 5 minutes. */
const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 5 * 60_000;

/**
 * The whole-program answer would not come whole: over the answer limit
 * (for good: later rebuilds skip it), over what is left of the answer memory
 * while other answers are held, refused by the provider's body limit (413),
 * or too slow. Its 256 partitions are each a 256th of it.
 */
function partitionsMayFit(error: unknown): boolean {
  if (error instanceof HttpStatusError) return error.status === 413;
  return (
    error instanceof OverloadedError ||
    (error instanceof RpcFailure && (error.kind === "too-large" || error.kind === "timeout"))
  );
}

/** Why the index must be rebuilt from a full scan rather than caught up. */
class NeedsRebuild extends Error {
  override readonly name = "NeedsRebuild";
}

export interface TokenizedIndexOptions {
  /** Memory the index may take (rows and changes); past it, `/domains` scans. */
  readonly maxBytes: number;
  /** Longest a request waits for the index to be built or caught up before it scans instead. */
  readonly maxWaitMs: number;
  /**
   * How long every endpoint may refuse the floor (-32016) before it is
   * dropped to the slot they serve (TOKENIZED_INDEX_FLOOR_GIVE_UP_MS).
   */
  readonly floorGiveUpMs?: number;
  readonly logger?: Logger;
  readonly telemetry?: Telemetry;
  /** Where the rows live; absent: compact rows in this process. */
  readonly store?: TokenizedRecordStore;
  /**
   * When tracing: builds and catch-ups are the gateway's own work, shared by
   * every request, and run in no request's trace even when one (a `/ready`
   * probe, a `/domains` request, a retry timer set during one) starts them.
   */
  readonly contexts?: TraceContexts;
}

/**
 * What an index answers for a wallet's mints read at `slot`, with its floor
 * and how many times it has dropped one (a floor may go down only then).
 */
export type IndexAnswer =
  | { readonly names: readonly (Address | null)[]; readonly floor: number; readonly floorDrops?: number }
  | { readonly unavailable: TokenizedIndexFallback; readonly floor: number; readonly floorDrops?: number };

/** Floor-give-up of an index built without one. */
const DEFAULT_FLOOR_GIVE_UP_MS = 10_000;

/**
 * A tokenized index wherever it lives: this process (TokenizedIndex) or a
 * Durable Object the Worker asks (platform/workers/index-object-client.ts).
 */
export interface MintIndex {
  /** The slot below which the index never reads: a wallet's mints must be read at least that new. */
  floor(): number | undefined;
  /** The name accounts of `mints` once the index reflects `slot`, or why it cannot answer in time. */
  namesOf(mints: readonly Address[], slot: number): Promise<IndexAnswer>;
  /**
   * Every endpoint refused a read at `floor` (-32016); `servable`: the
   * highest slot one of them said it has. Answers the floor in force after
   * it (0: none): lower than `floor` once the index gave that floor up.
   */
  floorUnreachable(floor: number, servable: number | undefined): Promise<number>;
}

/**
 * `/domains`' source over an index: the wallet's mints are read no older
 * than the index, and the index answers for them once it has caught up
 * with that read; when it cannot (building, failed, over budget, too slow,
 * unreachable) the request scans the tokenizer per mint, as an `rpc`
 * override does. The answer is the same either way.
 */
export function indexedSource(index: MintIndex, telemetry: Telemetry = NO_TELEMETRY): TokenizedDomainSource {
  return async (chain: ChainReader, wallet: Address) => {
    let floor = index.floor();
    let read;
    try {
      read = await findWalletMints(chain, wallet, COMMITMENT, floor);
    } catch (error) {
      // Every endpoint is behind the floor: the index may give it up, and the read is asked again below it.
      if (floor === undefined || !isMinContextSlotRefusal(error)) throw error;
      const after = await index.floorUnreachable(floor, error.contextSlot).catch(() => floor!);
      if (after >= floor) throw error;
      floor = after > 0 ? after : undefined;
      read = await findWalletMints(chain, wallet, COMMITMENT, floor);
    }
    const { slot, mints } = read;
    if (mints.length === 0) return [];
    const answer = await index
      .namesOf(mints, slot)
      .catch((): IndexAnswer => ({ unavailable: "failed", floor: floor ?? 0 }));
    if ("unavailable" in answer) {
      telemetry.tokenizedIndexFallback(answer.unavailable);
      return scanRecordsOfMints(chain, mints, floor);
    }
    return answer.names.filter((name): name is Address => name !== null);
  };
}

export interface TokenizedIndexStats {
  readonly state: TokenizedIndexState;
  readonly records: number;
  readonly bytes: number;
  readonly syncedSlot: number;
  readonly bootstraps: number;
  readonly catchUps: number;
}

interface CatchUp {
  readonly done: Promise<void>;
  /** Every tokenizer transaction at or below this slot is reflected once `done` settles. */
  readonly covers: number;
}

const wait = (ms: number) => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const promise = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), ms)));
  return { promise, cancel: () => clearTimeout(timer) };
};

/**
 * Active tokenizer NFT records of `RPC_URL`, `mint → name account`, kept
 * in a record store (record-store.ts): in memory in 64 bytes per record
 * plus the changes seen since the last build on Node (compact-records.ts),
 * in SQLite in a Durable Object on Workers, where the rows and the progress
 * outlive the object and a woken index catches up from its saved cursor.
 * Built in the background with one
 * `getProgramAccounts` of the tokenizer (split by the mint's first byte when
 * the answer would not come whole), then kept fresh by reading the
 * tokenizer's new signatures and re-reading the NFT records their
 * transactions wrote. Every read asks `minContextSlot` at the slot already
 * reached, so a lagging endpoint is refused (and another one asked), never
 * believed.
 *
 * It is an optimisation, never a reason to fail: a request it cannot
 * answer within `maxWaitMs` (not built yet, building, failed, over its
 * memory budget) scans the tokenizer per mint instead, as an `rpc` override
 * does, with the wallet's mints already read. A failure is logged once per
 * change of state and retried in the background with a growing pause. At
 * most one build runs at a time; it drops the previous rows first, so the
 * index never holds two copies. Catch-ups are merged: one runs, and every
 * request asking for a newer slot meanwhile shares the single one after it.
 */
export class TokenizedIndex implements MintIndex {
  private readonly store: TokenizedRecordStore;
  private cursor: string | undefined;
  private syncedSlot = -1;
  /** Highest slot the index has reached: never asked below again, whatever happens to the rows. */
  private floorSlot = 0;
  private state: TokenizedIndexState = "idle";
  private building: Promise<void> | undefined;
  private running: CatchUp | undefined;
  private queued: { target: number; readonly done: Promise<void> } | undefined;
  /** Set once the whole-program answer was too large: later builds go straight to partitions. */
  private partitioned = false;
  private failures = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;
  /** A failure was logged and no recovery since: the next ready state is logged too. */
  private degraded = false;
  private lastLogged: TokenizedIndexState | undefined;
  private counters = { bootstraps: 0, catchUps: 0 };
  private readonly telemetry: Telemetry;
  /** How far a slot from an answer is believed: the floor moves only as fast as time allows. */
  private readonly slots = new SlotBound();
  /** Since when (performance.now()) every endpoint has refused the floor, with no read at it in between. */
  private floorRefusedSince: number | undefined;
  /** Highest slot an endpoint said it has while refusing the floor. */
  private servableSlot: number | undefined;
  private floorDrops = 0;

  constructor(
    private readonly endpoint: RpcEndpoint,
    private readonly options: TokenizedIndexOptions,
  ) {
    this.telemetry = options.telemetry ?? NO_TELEMETRY;
    this.store = options.store ?? new CompactRecordStore();
    this.source = indexedSource(this, this.telemetry);
    const saved = this.store.loadProgress();
    if (saved) {
      // Rows that outlived the process: caught up from their cursor, never below their floor.
      this.floorSlot = saved.floorSlot;
      this.partitioned = saved.partitioned;
      if (saved.ready) {
        this.cursor = saved.cursor;
        this.syncedSlot = saved.syncedSlot;
        this.state = "ready";
      } else {
        this.store.clear();
      }
    }
    this.telemetry.tokenizedIndexState(this.state);
  }

  get stats(): TokenizedIndexStats {
    return {
      state: this.state,
      records: this.store.records,
      bytes: this.store.bytes,
      syncedSlot: this.syncedSlot,
      ...this.counters,
    };
  }

  /**
   * Starts catching up to `slot`, a `confirmed` slot an endpoint just said it
   * has, when the index is answering and no catch-up is under way (`/ready`
   * asks, so the index of a gateway without `/domains` requests keeps up with
   * the tip). Such a catch-up never fails the index: whatever it meets (an
   * endpoint behind `slot` refusing it, -32016; a fault; a backlog that needs
   * a rebuild) leaves the rows and the floor as they are, and the index is
   * "not there yet": its lag shows it, and the next `/domains` request's own
   * catch-up handles what is wrong.
   */
  catchUpTo(slot: number): void {
    if (this.state !== "ready" || this.syncedSlot >= slot || this.running) return;
    this.startCatchUp(slot, false);
  }

  /** The source `/domains` uses on `RPC_URL`. */
  readonly source: TokenizedDomainSource;

  async namesOf(mints: readonly Address[], slot: number): Promise<IndexAnswer> {
    // The mints were read at `slot`, no older than the floor asked: an endpoint serves the floor.
    if (slot >= this.floorSlot) this.floorServed();
    const unavailable = await this.readyFor(slot);
    const floor = this.floorSlot;
    const floorDrops = this.floorDrops;
    if (unavailable) return { unavailable, floor, floorDrops };
    return { names: mints.map((mint) => this.store.lookup(mint) ?? null), floor, floorDrops };
  }

  async floorUnreachable(floor: number, servable: number | undefined): Promise<number> {
    if (floor === this.floorSlot && floor > 0) void this.floorRefused(servable);
    return this.floorSlot;
  }

  private floorServed(): void {
    this.floorRefusedSince = undefined;
    this.servableSlot = undefined;
  }

  /**
   * Every endpoint refused the floor: after `floorGiveUpMs` of nothing but
   * refusals, the floor is dropped to the highest slot one of them said it
   * has (none said: no floor), since no endpoint can serve it (an answer set
   * it that no honest node confirms). What the index reflects is taken to
   * be no newer than that: the next request catches it up from its cursor.
   */
  private floorRefused(servable: number | undefined): boolean {
    const now = performance.now();
    if (servable !== undefined && servable < this.floorSlot)
      this.servableSlot = Math.max(this.servableSlot ?? 0, servable);
    this.floorRefusedSince ??= now;
    if (now - this.floorRefusedSince < (this.options.floorGiveUpMs ?? DEFAULT_FLOOR_GIVE_UP_MS)) return false;
    const from = this.floorSlot;
    const to = this.servableSlot ?? 0;
    this.floorSlot = to;
    this.syncedSlot = Math.min(this.syncedSlot, to);
    this.slots.reset(to);
    this.floorServed();
    this.floorDrops++;
    this.save(this.state === "ready");
    this.telemetry.tokenizedIndexSlot("floor_dropped");
    this.options.logger?.warn(
      { index: "tokenized", floor: from, to },
      "tokenized index floor dropped: no RPC endpoint reached it in time",
    );
    // A build waiting out its pause after failing at the old floor is tried again now.
    if (this.state === "failed" && !this.disposed) {
      clearTimeout(this.retryTimer);
      this.build().catch(() => undefined);
    }
    return true;
  }

  /** Settles once no build is under way (whatever its outcome): for tests and benchmarks. */
  async settled(): Promise<void> {
    await this.building?.catch(() => undefined);
  }

  /** Stops background retries (the gateway is shutting down). */
  dispose(): void {
    this.disposed = true;
    clearTimeout(this.retryTimer);
  }

  floor(): number | undefined {
    return this.floorSlot > 0 ? this.floorSlot : undefined;
  }

  /** Floors dropped since this index started (a floor goes down only then). */
  get floorDropCount(): number {
    return this.floorDrops;
  }

  /** Undefined once the index reflects `slot`; otherwise why the request must scan. */
  private async readyFor(slot: number): Promise<TokenizedIndexFallback | undefined> {
    if (this.state === "failed" || this.state === "over_budget") return this.state;
    if (this.state === "ready" && this.syncedSlot >= slot) return undefined;
    const work = this.state === "ready" ? this.syncTo(slot) : this.build().then(() => this.syncTo(slot));
    const timer = wait(this.options.maxWaitMs);
    try {
      const outcome = await Promise.race([work.then(() => "ready" as const), timer.promise]);
      if (outcome === "late") return this.state === "building" ? "building" : "slow";
      return undefined;
    } catch {
      // The failure itself was recorded by whoever ran the work.
      const state = this.state as TokenizedIndexState;
      return state === "over_budget" ? "over_budget" : state === "building" ? "building" : "failed";
    } finally {
      timer.cancel();
      work.catch(() => undefined);
    }
  }

  /** Resolves once every tokenizer transaction up to `slot` is in the index; merges concurrent asks. */
  private syncTo(slot: number): Promise<void> {
    if (this.state !== "ready") return Promise.reject(new Error("tokenized index not ready"));
    if (this.syncedSlot >= slot) return Promise.resolve();
    const running = this.running;
    if (!running) return this.startCatchUp(slot).done;
    if (running.covers >= slot) return running.done;
    if (this.queued) {
      this.queued.target = Math.max(this.queued.target, slot);
      return this.queued.done;
    }
    const queued: { target: number; done: Promise<void> } = {
      target: slot,
      done: running.done
        .catch(() => undefined)
        .then(() => {
          if (this.queued === queued) this.queued = undefined;
          return this.syncTo(queued.target);
        }),
    };
    this.queued = queued;
    return queued.done;
  }

  /** `failsIndex`: whether its failure fails the index (false for `catchUpTo`'s). */
  private startCatchUp(slot: number, failsIndex = true): CatchUp {
    const { contexts } = this.options;
    const done = contexts ? contexts.runIn(undefined, () => this.catchUp(slot)) : this.catchUp(slot);
    const entry: CatchUp = { covers: slot, done };
    this.running = entry;
    entry.done.then(
      () => {
        if (this.running === entry) this.running = undefined;
        this.failures = 0;
      },
      (error: unknown) => {
        if (this.running === entry) this.running = undefined;
        if (failsIndex) this.fail(error);
      },
    );
    return entry;
  }

  /** The one build under way, or a new one. */
  private build(): Promise<void> {
    const { contexts } = this.options;
    this.building ??= (contexts ? contexts.runIn(undefined, () => this.bootstrap()) : this.bootstrap()).then(
      () => {
        this.building = undefined;
        this.setState("ready");
      },
      (error: unknown) => {
        this.building = undefined;
        this.fail(error);
        throw error;
      },
    );
    return this.building;
  }

  private fail(error: unknown): void {
    // A floor given up here is retried at once, not after the pause of the failures at it.
    if (isMinContextSlotRefusal(error) && this.floorSlot > 0 && this.floorRefused(error.contextSlot)) this.failures = 0;
    if (error instanceof NeedsRebuild && this.failures === 0 && !this.disposed) {
      // A long backlog once in a while: rebuild at once, in the background.
      this.failures++;
      this.release();
      this.build().catch(() => undefined);
      return;
    }
    this.failures++;
    this.release();
    const overBudget = (error as Error)?.name === "OverBudgetError";
    this.setState(overBudget ? "over_budget" : "failed", error);
    if (this.disposed) return;
    clearTimeout(this.retryTimer);
    const delay = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** (this.failures - 1));
    // Over the budget is a fact about the chain that changes slowly: the longest pause at once.
    // `fail` has recorded a build's failure already: the timer drops only the rejection.
    this.retryTimer = setTimeout(() => void this.build().catch(() => undefined), overBudget ? MAX_RETRY_MS : delay);
    (this.retryTimer as { unref?: () => void }).unref?.();
  }

  /** Drops the rows: a build never holds two copies, and a failed index holds none. */
  private release(): void {
    this.store.clear();
    this.syncedSlot = -1;
    this.cursor = undefined;
    this.save(false);
  }

  private save(ready: boolean): void {
    const progress: IndexProgress = {
      ready,
      cursor: this.cursor,
      syncedSlot: this.syncedSlot,
      floorSlot: this.floorSlot,
      partitioned: this.partitioned,
    };
    this.store.saveProgress(progress);
  }

  private setState(next: TokenizedIndexState, cause?: unknown): void {
    if (next === this.state) return;
    const previous = this.state;
    this.state = next;
    this.telemetry.tokenizedIndexState(next);
    const { logger } = this.options;
    if (
      (next === "failed" || next === "over_budget") &&
      !(this.degraded && previous === "building" && this.lastLogged === next)
    ) {
      const reason = cause instanceof Error ? cause.message : String(cause);
      logger?.warn(
        { index: "tokenized", state: next, reason },
        "tokenized index unavailable: /domains scans per request",
      );
      this.degraded = true;
      this.lastLogged = next;
    } else if (next === "ready" && this.degraded) {
      logger?.info({ index: "tokenized", state: next, records: this.store.records }, "tokenized index ready again");
      this.degraded = false;
      this.lastLogged = next;
    }
  }

  private async bootstrap(): Promise<void> {
    this.counters.bootstraps++;
    this.release();
    this.setState("building");
    const floor = this.floor();
    // The cursor is taken first: whatever happens after it is replayed by the next catch-up.
    const [newest] = await this.endpoint.getSignaturesForAddress(NAME_TOKENIZER_ID, {
      limit: 1,
      commitment: COMMITMENT,
      ...(floor !== undefined && { minContextSlot: floor }),
    });
    const builder = this.store.build(Math.floor(this.options.maxBytes / RECORD_BYTES));
    let slot: number | undefined;
    if (!this.partitioned) {
      try {
        slot = await this.scan(builder, []);
      } catch (error) {
        if (!partitionsMayFit(error)) throw error;
        if ((error as RpcFailure).kind === "too-large" || error instanceof HttpStatusError) this.partitioned = true;
      }
    }
    if (slot === undefined) {
      slot = 0;
      for (let first = 0; first < PARTITIONS; first += PARTITIONS_PER_ROUND) {
        const round = Array.from({ length: PARTITIONS_PER_ROUND }, (_, i) => this.scan(builder, [first + i]));
        for (const partSlot of await Promise.all(round)) slot = Math.max(slot, partSlot);
      }
    }
    builder.finish();
    this.cursor = newest?.signature;
    this.reached(slot, newest?.slot ?? 0);
  }

  /**
   * The reads of a build or catch-up answered at the slots they claimed
   * (the slot asked for, an answer's context, the newest signature's). Each
   * is believed only as far as time allows since the last slot believed;
   * none is: they count as read at the floor, which every one of them
   * asked as `minContextSlot`.
   */
  private reached(...claimed: number[]): void {
    const admitted = claimed.filter((slot) => this.slots.admits(slot));
    if (admitted.length < claimed.length) this.telemetry.tokenizedIndexSlot("claim_refused");
    const believed = Math.max(this.floorSlot, ...admitted);
    this.slots.accept(believed);
    this.syncedSlot = Math.max(this.syncedSlot, believed);
    this.floorSlot = Math.max(this.floorSlot, this.syncedSlot);
    this.floorServed();
    this.save(true);
  }

  /** Active records, optionally only those whose mint starts with `prefix`; returns the answer's slot. */
  private async scan(into: RecordsBuild, prefix: number[]): Promise<number> {
    const floor = this.floor();
    const { slot, accounts } = await this.endpoint.getProgramAccounts(NAME_TOKENIZER_ID, {
      filters: [
        { dataSize: NFT_RECORD_LEN },
        { memcmp: { offset: 0, bytes: new Uint8Array([NftRecordTag.ActiveRecord]) } },
        ...(prefix.length ? [{ memcmp: { offset: 66, bytes: Uint8Array.from(prefix) } }] : []),
      ],
      dataSlice: RECORD_SLICE,
      commitment: COMMITMENT,
      ...(floor !== undefined && { minContextSlot: floor }),
    });
    const rows = new Uint8Array(accounts.length * RECORD_BYTES);
    accounts.forEach(({ account }, i) => {
      const data = account.data;
      if (data.length !== RECORD_SLICE.length)
        throw new RpcFailure("invalid-response", "NFT record slice has the wrong size");
      // The slice is name account (0..32), owner (32..64), mint (64..96): a row is mint then name account.
      rows.set(data.subarray(64, 96), i * RECORD_BYTES);
      rows.set(data.subarray(0, 32), i * RECORD_BYTES + 32);
    });
    into.add(rows);
    return slot;
  }

  private async catchUp(slot: number): Promise<void> {
    this.counters.catchUps++;
    // A slot past what time allows is asked no further than the floor: one answer cannot make every
    // honest node refuse the catch-up. The node answers its newest state all the same.
    const atLeast = this.slots.admits(slot) ? Math.max(slot, this.floorSlot) : this.floorSlot;
    const signatures = await this.endpoint.getSignaturesForAddress(NAME_TOKENIZER_ID, {
      limit: BACKLOG_LIMIT,
      commitment: COMMITMENT,
      ...(this.cursor && { until: this.cursor }),
      ...(atLeast > 0 && { minContextSlot: atLeast }),
    });
    if (signatures.length >= BACKLOG_LIMIT)
      throw new NeedsRebuild(`a backlog of ${BACKLOG_LIMIT} tokenizer transactions or more`);
    const applied = signatures.filter((entry) => !entry.failed).reverse();
    const touched = new Set<Address>();
    for (let i = 0; i < applied.length; i += TRANSACTIONS_PER_ROUND) {
      const round = applied.slice(i, i + TRANSACTIONS_PER_ROUND);
      const transactions = await Promise.all(
        round.map((entry) => this.endpoint.getTransactionAccounts(entry.signature, COMMITMENT)),
      );
      for (const transaction of transactions) {
        // A signature the node lists but cannot return yet.
        if (!transaction) throw new NeedsRebuild("a listed tokenizer transaction the node cannot return");
        if (transaction.programs.has(NAME_TOKENIZER_ID)) for (const key of transaction.writable) touched.add(key);
      }
    }
    // The newest signature's slot is one answer's word: asked of the accounts only as far as it is believable.
    const newest = signatures[0]?.slot ?? 0;
    if (touched.size > 0) await this.refresh([...touched], this.slots.admits(newest) ? newest : atLeast);
    if (signatures[0]) this.cursor = signatures[0].signature;
    this.reached(slot, newest);
  }

  /** Re-reads accounts a tokenizer transaction wrote; only NFT records change the index. */
  private async refresh(keys: Address[], atLeast: number): Promise<void> {
    const accounts = await this.endpoint.getAccountsAtLeast(keys, atLeast, COMMITMENT);
    for (const account of accounts) {
      if (!account || account.owner !== NAME_TOKENIZER_ID || account.data.length !== NFT_RECORD_LEN) continue;
      const record = decodeNftRecord(account.data);
      const mint = bytesToAddress(record.nftMint);
      const name = bytesToAddress(record.nameAccount);
      // Which records of a shared mint remain is not tracked: such a change rebuilds.
      if (this.store.isAmbiguous(mint)) throw new NeedsRebuild("a change to a mint named by several records");
      if (record.tag === NftRecordTag.ActiveRecord) this.store.activate(mint, name);
      else if (record.tag === NftRecordTag.InactiveRecord && this.store.lookup(mint) === name)
        this.store.deactivate(mint);
    }
    if (this.store.bytes > this.options.maxBytes)
      throw new NeedsRebuild("changes since the last build over the memory budget");
  }
}
