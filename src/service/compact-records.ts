import type { Address } from "@solana/kit";
import { addressToBytes, bytesToAddress } from "../sns/bytes.js";
import type { IndexProgress, RecordsBuild, TokenizedRecordStore } from "./record-store.js";

/** One record: the mint (32 bytes, the key) then its name account (32 bytes). */
export const RECORD_BYTES = 64;
const KEY_BYTES = 32;
const SEGMENTS = 256;

/** The records would not fit the index's memory budget. */
export class OverBudgetError extends Error {
  override readonly name = "OverBudgetError";
}

/** Compares record `i` of `rows` with `key` on bytes 1..31 (byte 0 selects the segment). */
function compareAt(rows: Uint8Array, i: number, key: Uint8Array): number {
  const base = i * RECORD_BYTES;
  for (let b = 1; b < KEY_BYTES; b++) {
    const diff = rows[base + b]! - key[b]!;
    if (diff !== 0) return diff;
  }
  return 0;
}

function compareRows(rows: Uint8Array, i: number, j: number): number {
  const a = i * RECORD_BYTES;
  const c = j * RECORD_BYTES;
  for (let b = 1; b < KEY_BYTES; b++) {
    const diff = rows[a + b]! - rows[c + b]!;
    if (diff !== 0) return diff;
  }
  return 0;
}

/** The rows of one segment sorted by key; a new buffer of the same size (a segment is 1/256 of the whole). */
function sortSegment(rows: Uint8Array): Uint8Array {
  const count = rows.length / RECORD_BYTES;
  const order = Array.from({ length: count }, (_, i) => i).sort((i, j) => compareRows(rows, i, j));
  const sorted = new Uint8Array(rows.length);
  order.forEach((from, to) =>
    sorted.set(rows.subarray(from * RECORD_BYTES, (from + 1) * RECORD_BYTES), to * RECORD_BYTES),
  );
  return sorted;
}

/**
 * `mint → name account` in 64 bytes per record: 256 segments by the mint's
 * first byte, each a sorted array of rows found by binary search. A 96-byte
 * NFT record slice becomes one row; the map of strings it replaces took
 * about 180 bytes per record.
 */
export class CompactRecords {
  private constructor(
    private readonly segments: readonly Uint8Array[],
    /** Mints named by more than one record (the SDK counts them as no match), as row counts go. */
    readonly duplicateKeys: readonly Uint8Array[],
    readonly size: number,
  ) {}

  static build(segments: readonly Uint8Array[]): CompactRecords {
    const sorted = segments.map(sortSegment);
    const duplicates: Uint8Array[] = [];
    let size = 0;
    for (const rows of sorted) {
      const count = rows.length / RECORD_BYTES;
      size += count;
      for (let i = 1; i < count; i++) {
        if (compareRows(rows, i - 1, i) === 0 && (duplicates.length === 0 || !sameKey(duplicates.at(-1)!, rows, i))) {
          duplicates.push(rows.slice(i * RECORD_BYTES, i * RECORD_BYTES + KEY_BYTES));
        }
      }
    }
    return new CompactRecords(sorted, duplicates, size);
  }

  /** Bytes held by the rows. */
  get bytes(): number {
    return this.size * RECORD_BYTES;
  }

  /** The name account of `mint` (32 bytes), or undefined. */
  get(mint: Uint8Array): Uint8Array | undefined {
    const rows = this.segments[mint[0]!]!;
    let low = 0;
    let high = rows.length / RECORD_BYTES - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const order = compareAt(rows, mid, mint);
      if (order === 0) return rows.subarray(mid * RECORD_BYTES + KEY_BYTES, (mid + 1) * RECORD_BYTES);
      if (order < 0) low = mid + 1;
      else high = mid - 1;
    }
    return undefined;
  }
}

function sameKey(key: Uint8Array, rows: Uint8Array, i: number): boolean {
  for (let b = 0; b < KEY_BYTES; b++) if (key[b] !== rows[i * RECORD_BYTES + b]) return false;
  return true;
}

/**
 * Collects rows into segments, each allocated at its exact size: a batch of
 * records (one scan answer) is counted by first byte before it is copied, so
 * a partitioned build (one answer per first byte) allocates every segment
 * once, and a single whole-program answer does too. Over `maxRecords` it
 * throws OverBudgetError before allocating.
 */
export class CompactRecordsBuilder {
  private readonly segments: Uint8Array[] = Array.from({ length: SEGMENTS }, () => new Uint8Array(0));
  private count = 0;

  constructor(private readonly maxRecords: number) {}

  /** `rows`: records laid out as RECORD_BYTES each (mint then name). */
  add(rows: Uint8Array): void {
    const added = rows.length / RECORD_BYTES;
    if (this.count + added > this.maxRecords)
      throw new OverBudgetError(`more than ${this.maxRecords} tokenizer records`);
    this.count += added;
    const perSegment = new Uint32Array(SEGMENTS);
    for (let i = 0; i < added; i++) perSegment[rows[i * RECORD_BYTES]!]!++;
    const offsets = new Uint32Array(SEGMENTS);
    for (let s = 0; s < SEGMENTS; s++) {
      if (perSegment[s] === 0) continue;
      const old = this.segments[s]!;
      const grown = new Uint8Array(old.length + perSegment[s]! * RECORD_BYTES);
      grown.set(old);
      offsets[s] = old.length;
      this.segments[s] = grown;
    }
    for (let i = 0; i < added; i++) {
      const row = rows.subarray(i * RECORD_BYTES, (i + 1) * RECORD_BYTES);
      const s = row[0]!;
      this.segments[s]!.set(row, offsets[s]!);
      offsets[s]! += RECORD_BYTES;
    }
  }

  finish(): CompactRecords {
    return CompactRecords.build(this.segments);
  }
}

/** What one change kept beside the compact rows costs (a map entry of two address strings). */
const CHANGE_BYTES = 200;

/**
 * The index's store in the process: the rows of the last build as
 * CompactRecords, and the changes seen since (a name account, or null for a
 * record gone inactive) in a map beside them. Nothing outlives the process.
 */
export class CompactRecordStore implements TokenizedRecordStore {
  private rows: CompactRecords | undefined;
  private readonly changes = new Map<Address, Address | null>();
  private readonly ambiguous = new Set<Address>();
  /** Active records the changes added (positive) or removed (negative) against the rows. */
  private changedActive = 0;
  /** Counts clears: a build started before the latest one is given up (RecordsBuild). */
  private generation = 0;

  get records(): number {
    return (this.rows?.size ?? 0) + this.changedActive;
  }

  get bytes(): number {
    return (this.rows?.bytes ?? 0) + (this.changes.size + this.ambiguous.size) * CHANGE_BYTES;
  }

  lookup(mint: Address): Address | undefined {
    if (this.ambiguous.has(mint)) return undefined;
    const changed = this.changes.get(mint);
    if (changed !== undefined) return changed ?? undefined;
    const name = this.rows?.get(addressToBytes(mint));
    return name && bytesToAddress(name);
  }

  isAmbiguous(mint: Address): boolean {
    return this.ambiguous.has(mint);
  }

  activate(mint: Address, name: Address): void {
    const known = this.lookup(mint);
    if (known !== undefined && known !== name) this.ambiguous.add(mint);
    this.change(mint, name);
  }

  deactivate(mint: Address): void {
    this.change(mint, null);
  }

  private change(mint: Address, name: Address | null): void {
    const changed = this.changes.get(mint);
    const wasActive = changed !== undefined ? changed !== null : this.rows?.get(addressToBytes(mint)) !== undefined;
    this.changedActive += (name !== null ? 1 : 0) - (wasActive ? 1 : 0);
    this.changes.set(mint, name);
  }

  clear(): void {
    this.rows = undefined;
    this.changes.clear();
    this.ambiguous.clear();
    this.changedActive = 0;
    this.generation++;
  }

  build(maxRecords: number): RecordsBuild {
    this.clear();
    const generation = this.generation;
    const builder = new CompactRecordsBuilder(maxRecords);
    return {
      add: (rows) => builder.add(rows),
      finish: () => {
        if (generation !== this.generation) return;
        this.rows = builder.finish();
        for (const key of this.rows.duplicateKeys) this.ambiguous.add(bytesToAddress(key));
      },
    };
  }

  loadProgress(): IndexProgress | undefined {
    return undefined;
  }

  saveProgress(): void {}
}
