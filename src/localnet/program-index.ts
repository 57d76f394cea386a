import type { LedgerAccount } from "./ledger.js";

/**
 * Indexes of a program's accounts by a few bytes at a fixed offset, so a `getProgramAccounts` whose filters
 * include a short memcmp looks at the accounts having those bytes instead of walking every account of the
 * program. A partitioned scan (one query per value of a byte, as the tokenized-domain index makes) otherwise
 * walks the whole program once per partition: 256 walks of 100,000s of accounts.
 *
 * Invariants:
 * - an index exists only for a (program, offset, length) that a query asked for, and a program keeps at most
 *   MAX_INDEXES_PER_PROGRAM of them (the least recently used goes first): memory is bounded by that many
 *   address lists the size of the program;
 * - a program's indexes are dropped whenever one of its accounts is set or deleted (the ledger calls `forget`),
 *   and rebuilt by the next query that needs them: a rebuild is one walk, what every query cost before;
 * - candidates come in the program's insertion order and are a superset of the matches of the memcmp they were
 *   looked up by (accounts shorter than offset + length are in no bucket): the caller still applies every
 *   filter to each candidate, so answers are exactly those of a full walk.
 */

/** Longest memcmp that is indexed: its bytes are a bucket key that fits a number exactly. */
export const MAX_INDEXED_BYTES = 4;
/** Indexes one program keeps at once. */
export const MAX_INDEXES_PER_PROGRAM = 4;

/** A memcmp filter as it reads: `bytes` at `offset` of an account's data. */
export interface MemcmpSpec {
  readonly offset: number;
  readonly bytes: Uint8Array;
}

/** Bucket key → addresses having those bytes, in the program's insertion order. */
type ByteIndex = Map<number, string[]>;

const NO_ADDRESSES: readonly string[] = [];

function indexable({ bytes }: MemcmpSpec): boolean {
  return bytes.length >= 1 && bytes.length <= MAX_INDEXED_BYTES;
}

function indexKey(offset: number, length: number): string {
  return `${offset}:${length}`;
}

/** The bytes at `offset` as one number (big-endian), or undefined when the data is too short. */
function bucketKey(data: Uint8Array, offset: number, length: number): number | undefined {
  if (offset + length > data.length) return undefined;
  let key = 0;
  for (let i = 0; i < length; i++) key = key * 256 + data[offset + i]!;
  return key;
}

export class ProgramIndexes {
  /** Program → (offset:length → index), each inner map in least- to most-recently-used order. */
  readonly #byProgram = new Map<string, Map<string, ByteIndex>>();

  /** Drops the indexes of `program`: one of its accounts changed. */
  forget(program: string): void {
    this.#byProgram.delete(program);
  }

  clear(): void {
    this.#byProgram.clear();
  }

  /**
   * Addresses that may match every memcmp of `memcmps` among `accounts` (the program's accounts, in
   * insertion order), in that order; undefined when no memcmp is indexable and the caller must walk.
   */
  candidates(
    program: string,
    accounts: ReadonlyMap<string, LedgerAccount>,
    memcmps: readonly MemcmpSpec[],
  ): readonly string[] | undefined {
    const wanted = memcmps.filter(indexable).slice(0, MAX_INDEXES_PER_PROGRAM);
    if (wanted.length === 0) return undefined;
    let indexes = this.#byProgram.get(program);
    if (!indexes) this.#byProgram.set(program, (indexes = new Map()));
    // Most recently used last, so eviction (after a build) takes neither these nor the ones built now.
    for (const { offset, bytes } of wanted) {
      const key = indexKey(offset, bytes.length);
      const index = indexes.get(key);
      if (index === undefined) continue;
      indexes.delete(key);
      indexes.set(key, index);
    }
    const missing = new Map<string, MemcmpSpec>();
    for (const memcmp of wanted) {
      const key = indexKey(memcmp.offset, memcmp.bytes.length);
      if (!indexes.has(key)) missing.set(key, memcmp);
    }
    if (missing.size > 0) this.#build(indexes, accounts, [...missing.values()]);
    let best: readonly string[] | undefined;
    for (const { offset, bytes } of wanted) {
      const bucket = indexes.get(indexKey(offset, bytes.length))!.get(bucketKey(bytes, 0, bytes.length)!);
      if (bucket === undefined) return NO_ADDRESSES;
      if (best === undefined || bucket.length < best.length) best = bucket;
    }
    return best;
  }

  /** Builds the indexes of `missing` in one walk, evicting the least recently used beyond the bound. */
  #build(indexes: Map<string, ByteIndex>, accounts: ReadonlyMap<string, LedgerAccount>, missing: MemcmpSpec[]): void {
    const built = missing.map(({ offset, bytes }) => ({ offset, length: bytes.length, index: new Map() as ByteIndex }));
    for (const [address, { data }] of accounts) {
      for (const { offset, length, index } of built) {
        const key = bucketKey(data, offset, length);
        if (key === undefined) continue;
        const bucket = index.get(key);
        if (bucket) bucket.push(address);
        else index.set(key, [address]);
      }
    }
    for (const { offset, length, index } of built) indexes.set(indexKey(offset, length), index);
    for (const key of indexes.keys()) {
      if (indexes.size <= MAX_INDEXES_PER_PROGRAM) break;
      indexes.delete(key);
    }
  }
}
