import type { Address } from "@solana/kit";
import type { RpcEndpoint } from "../rpc/endpoint.js";
import { OverloadedError, RpcError } from "../rpc/errors.js";
import { bytesToAddress } from "../sns/bytes.js";
import type { ChainReader } from "../sns/chain.js";
import { NAME_TOKENIZER_ID, NFT_RECORD_LEN } from "../sns/constants.js";
import { NftRecordTag, decodeNftRecord } from "../sns/layouts/nft-record.js";
import { type TokenizedDomainSource, findWalletMints } from "../sns/queries/tokenized-domains.js";

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

/**
 * The whole-program answer is over the answer limit (for good: later rebuilds
 * skip it), or over what is left of the answer memory while other answers are
 * held (this time): either way its partitions fit.
 */
const doesNotFit = (error: unknown) => error instanceof OverloadedError || (error instanceof RpcError && error.kind === "too-large");

interface CatchUp {
  readonly done: Promise<void>;
  /** Every tokenizer transaction at or below this slot is reflected once `done` settles. */
  readonly covers: number;
}

export interface TokenizedIndexStats {
  readonly records: number;
  readonly syncedSlot: number;
  readonly bootstraps: number;
  readonly catchUps: number;
}

/**
 * Active tokenizer NFT records of one endpoint, `mint → name account`, kept
 * in memory. Built with one `getProgramAccounts` of the tokenizer (split by
 * the mint's first byte when the answer would not fit its budget), then kept
 * fresh by reading the tokenizer's new signatures and re-reading the NFT
 * records their transactions wrote. Before answering for a wallet it has
 * caught up with at least the slot of that wallet's token query, so no
 * answer is older than the chain state it was asked against. Concurrent
 * requests share catch-ups.
 */
export class TokenizedIndex {
  private readonly byMint = new Map<Address, Address>();
  /** Mints named by more than one active record: the SDK counts them as no match. */
  private readonly ambiguous = new Set<Address>();
  private cursor: string | undefined;
  private syncedSlot = -1;
  private ready: Promise<void> | undefined;
  private latest: CatchUp | undefined;
  /** Set once the whole-program answer was too large: later rebuilds go straight to partitions. */
  private partitioned = false;
  private counters = { bootstraps: 0, catchUps: 0 };

  constructor(private readonly endpoint: RpcEndpoint) {}

  get stats(): TokenizedIndexStats {
    return { records: this.byMint.size, syncedSlot: this.syncedSlot, ...this.counters };
  }

  /** The source `/domains` uses on this endpoint. */
  readonly source: TokenizedDomainSource = async (chain: ChainReader, wallet: Address) => {
    // Never older than the index: a node behind it refuses, and another endpoint is asked.
    const { slot, mints } = await findWalletMints(chain, wallet, COMMITMENT, this.floor());
    await this.syncTo(slot);
    return mints.flatMap((mint) => {
      const name = this.ambiguous.has(mint) ? undefined : this.byMint.get(mint);
      return name ? [name] : [];
    });
  };

  /** The slot every read of the index must have reached, once it has one. */
  private floor(): number | undefined {
    return this.syncedSlot > 0 ? this.syncedSlot : undefined;
  }

  /** Resolves once every tokenizer transaction up to `slot` is in the index. */
  async syncTo(slot: number): Promise<void> {
    await this.bootstrapOnce();
    if (this.syncedSlot >= slot) return;
    const latest = this.latest;
    if (latest && latest.covers >= slot) return latest.done;
    // A catch-up started after `slot` was observed lists every transaction up to it.
    const previous = latest?.done.catch(() => {}) ?? Promise.resolve();
    const done = previous.then(() => this.catchUp(slot));
    const entry: CatchUp = { done, covers: slot };
    this.latest = entry;
    done.then(
      () => {
        if (this.latest === entry) this.latest = undefined;
      },
      () => {
        if (this.latest === entry) this.latest = undefined;
      },
    );
    return done;
  }

  private bootstrapOnce(): Promise<void> {
    this.ready ??= this.bootstrap().catch((error: unknown) => {
      this.ready = undefined; // the next request tries again
      throw error;
    });
    return this.ready;
  }

  private async bootstrap(): Promise<void> {
    this.counters.bootstraps++;
    // The cursor is taken first: whatever happens after it is replayed by the next catch-up.
    const [newest] = await this.endpoint.getSignaturesForAddress(NAME_TOKENIZER_ID, { limit: 1, commitment: COMMITMENT });
    const entries: [Address, Address][] = [];
    let slot: number | undefined;
    if (!this.partitioned) {
      try {
        slot = await this.scan(entries, []);
      } catch (error) {
        if (!doesNotFit(error)) throw error;
        if ((error as RpcError).kind === "too-large") this.partitioned = true;
      }
    }
    if (slot === undefined) {
      slot = 0;
      for (let first = 0; first < PARTITIONS; first += PARTITIONS_PER_ROUND) {
        const round = Array.from({ length: PARTITIONS_PER_ROUND }, (_, i) => this.scan(entries, [first + i]));
        for (const partSlot of await Promise.all(round)) slot = Math.max(slot, partSlot);
      }
    }
    this.byMint.clear();
    this.ambiguous.clear();
    for (const [mint, name] of entries) this.add(mint, name);
    this.cursor = newest?.signature;
    this.syncedSlot = Math.max(slot, newest?.slot ?? 0);
  }

  /** Active records, optionally only those whose mint starts with `prefix`; returns the answer's slot. */
  private async scan(into: [Address, Address][], prefix: number[]): Promise<number> {
    const { slot, accounts } = await this.endpoint.getProgramAccounts(NAME_TOKENIZER_ID, {
      filters: [
        { dataSize: NFT_RECORD_LEN },
        { memcmp: { offset: 0, bytes: new Uint8Array([NftRecordTag.ActiveRecord]) } },
        ...(prefix.length ? [{ memcmp: { offset: 66, bytes: Uint8Array.from(prefix) } }] : []),
      ],
      dataSlice: RECORD_SLICE,
      commitment: COMMITMENT,
      ...(this.floor() !== undefined && { minContextSlot: this.floor() }),
    });
    for (const { account } of accounts) {
      const data = account.data;
      if (data.length !== RECORD_SLICE.length) throw new RpcError("invalid-response", "NFT record slice has the wrong size");
      into.push([bytesToAddress(data.subarray(64, 96)), bytesToAddress(data.subarray(0, 32))]);
    }
    return slot;
  }

  private async catchUp(slot: number): Promise<void> {
    this.counters.catchUps++;
    const signatures = await this.endpoint.getSignaturesForAddress(NAME_TOKENIZER_ID, {
      limit: BACKLOG_LIMIT,
      commitment: COMMITMENT,
      ...(this.cursor && { until: this.cursor }),
      minContextSlot: Math.max(slot, this.syncedSlot),
    });
    if (signatures.length >= BACKLOG_LIMIT) {
      await this.bootstrap();
      this.syncedSlot = Math.max(this.syncedSlot, slot);
      return;
    }
    const applied = signatures.filter((entry) => !entry.failed).reverse();
    const touched = new Set<Address>();
    for (let i = 0; i < applied.length; i += TRANSACTIONS_PER_ROUND) {
      const round = applied.slice(i, i + TRANSACTIONS_PER_ROUND);
      const transactions = await Promise.all(round.map((entry) => this.endpoint.getTransactionAccounts(entry.signature, COMMITMENT)));
      for (const transaction of transactions) {
        if (!transaction) {
          // A signature the node lists but cannot return yet: start over from a full scan.
          await this.bootstrap();
          this.syncedSlot = Math.max(this.syncedSlot, slot);
          return;
        }
        if (transaction.programs.has(NAME_TOKENIZER_ID)) for (const key of transaction.writable) touched.add(key);
      }
    }
    if (touched.size > 0) await this.refresh([...touched], signatures[0]!.slot);
    if (signatures[0]) this.cursor = signatures[0].signature;
    this.syncedSlot = Math.max(this.syncedSlot, slot, signatures[0]?.slot ?? 0);
  }

  /** Re-reads accounts a tokenizer transaction wrote; only NFT records change the index. */
  private async refresh(keys: Address[], atLeast: number): Promise<void> {
    const accounts = await this.endpoint.getAccountsAtLeast(keys, atLeast, COMMITMENT);
    let rebuild = false;
    for (const account of accounts) {
      if (!account || account.owner !== NAME_TOKENIZER_ID || account.data.length !== NFT_RECORD_LEN) continue;
      const record = decodeNftRecord(account.data);
      const mint = bytesToAddress(record.nftMint);
      const name = bytesToAddress(record.nameAccount);
      // Which records of a shared mint remain is not tracked: such a change rebuilds.
      if (this.ambiguous.has(mint)) rebuild = true;
      else if (record.tag === NftRecordTag.ActiveRecord) this.add(mint, name);
      else if (record.tag === NftRecordTag.InactiveRecord && this.byMint.get(mint) === name) {
        this.byMint.delete(mint);
      }
    }
    if (rebuild) await this.bootstrap();
  }

  private add(mint: Address, name: Address): void {
    const known = this.byMint.get(mint);
    if (known !== undefined && known !== name) this.ambiguous.add(mint);
    this.byMint.set(mint, name);
  }
}
