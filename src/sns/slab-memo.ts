/**
 * A memo of pure results kept outside the JavaScript heap, bounded by the
 * bytes it allocates, for the derivations and curve checks of the resolve path.
 *
 * Entries have a fixed size and live in typed-array chunks: a one-byte
 * reference flag, the 32-byte sha256 digest of the memo key (never the key:
 * names come from request paths and may be any length) and a fixed-size value
 * the caller reads and writes in place. A linear-probing index of entry
 * numbers finds them. Nothing here is a JavaScript object per entry, so a
 * full memo adds nothing to what the garbage collector marks, and V8 does not
 * grow its heap to a multiple of it as it does for live objects.
 *
 * Chunks are allocated as entries arrive, so a small working set stays small;
 * the budget bounds chunks and index together. Once full, a CLOCK hand picks
 * the entry to replace: entries looked up since the hand last passed get a
 * second chance, one-off keys do not, so what is looked up again stays.
 *
 * Two keys are taken as the same when their digests are: a sha256 collision
 * is not a practical concern. The index position mixes the digest with a
 * random per-process seed, so names ground to share a position in one process
 * do not in another, and cannot be aimed at one from outside.
 */
export interface MemoStats {
  readonly entries: number;
  /** Bytes of the chunks and the index allocated so far; never above `budget`. */
  readonly bytes: number;
  readonly budget: number;
}

/** Reads a value from `slab` at `offset`; the bytes are only valid during the call. */
export type ReadValue<T> = (slab: Uint8Array, offset: number) => T;
/** Writes a value of the memo's value size into `slab` at `offset`. */
export type WriteValue = (slab: Uint8Array, offset: number) => void;

export const DIGEST_BYTES = 32;
const FLAG_BYTES = 1;
const INDEX_SLOT_BYTES = 4;
const MIN_INDEX_SLOTS = 16;
/** Chunks of at most 256 KB (a power of two of entries): a fraction of the budgets, few enough to stay a short array. */
const CHUNK_TARGET_BYTES = 256 * 1024;

export class SlabMemo {
  /** Bytes of one entry: flag, digest and value. */
  readonly entryBytes: number;
  /** Entries the budget holds, chunks and the index at its largest counted. */
  readonly capacity: number;
  private readonly chunkShift: number;
  private readonly chunkMask: number;
  private readonly maxIndexSlots: number;
  private readonly chunks: Uint8Array[] = [];
  /** Entry number + 1 per slot; 0 is an empty slot. */
  private index: Int32Array;
  /** Entries 0 … count − 1 are in use: one is only ever replaced, never removed. */
  private count = 0;
  private hand = 0;

  constructor(
    readonly budgetBytes: number,
    readonly valueBytes: number,
  ) {
    this.entryBytes = FLAG_BYTES + DIGEST_BYTES + valueBytes;
    this.chunkShift = Math.max(0, Math.floor(Math.log2(CHUNK_TARGET_BYTES / this.entryBytes)));
    this.chunkMask = (1 << this.chunkShift) - 1;
    this.capacity = largestCapacity(budgetBytes, this.entryBytes);
    this.maxIndexSlots = this.capacity === 0 ? 0 : indexSlotsFor(this.capacity);
    this.index = new Int32Array(Math.min(MIN_INDEX_SLOTS, this.maxIndexSlots));
  }

  /** The value stored under `digest`, read by `read`, or undefined; marks the entry as looked up again. */
  get<T>(digest: Uint8Array, read: ReadValue<T>): T | undefined {
    const entry = this.find(digest);
    if (entry < 0) return undefined;
    const chunk = this.chunks[entry >>> this.chunkShift]!;
    const at = (entry & this.chunkMask) * this.entryBytes;
    chunk[at] = 1;
    return read(chunk, at + FLAG_BYTES + DIGEST_BYTES);
  }

  /** Stores a value under `digest` (kept as it is when one is there already), replacing an entry when full. */
  set(digest: Uint8Array, write: WriteValue): void {
    if (this.capacity === 0 || this.find(digest) >= 0) return;
    let entry: number;
    if (this.count < this.capacity) {
      entry = this.count;
      if ((entry + 1) * 2 > this.index.length && this.index.length < this.maxIndexSlots) this.growIndex();
      if (entry >>> this.chunkShift === this.chunks.length) this.addChunk();
      this.count++;
    } else {
      entry = this.victim();
      this.unindex(entry);
    }
    const chunk = this.chunks[entry >>> this.chunkShift]!;
    const at = (entry & this.chunkMask) * this.entryBytes;
    // Not marked: an entry earns its second chance by being looked up again.
    chunk[at] = 0;
    chunk.set(digest.subarray(0, DIGEST_BYTES), at + FLAG_BYTES);
    write(chunk, at + FLAG_BYTES + DIGEST_BYTES);
    this.insert(entry, bucketOf(digest, 0));
  }

  get size(): number {
    return this.count;
  }

  /** Bytes allocated: the chunks and the index. */
  get heldBytes(): number {
    let bytes = this.index.byteLength;
    for (const chunk of this.chunks) bytes += chunk.byteLength;
    return bytes;
  }

  stats(): MemoStats {
    return { entries: this.count, bytes: this.heldBytes, budget: this.budgetBytes };
  }

  private find(digest: Uint8Array): number {
    if (this.count === 0) return -1;
    const index = this.index;
    const mask = index.length - 1;
    for (let slot = bucketOf(digest, 0) & mask; ; slot = (slot + 1) & mask) {
      const held = index[slot]!;
      if (held === 0) return -1;
      if (this.digestIs(held - 1, digest)) return held - 1;
    }
  }

  private digestIs(entry: number, digest: Uint8Array): boolean {
    const chunk = this.chunks[entry >>> this.chunkShift]!;
    const at = (entry & this.chunkMask) * this.entryBytes + FLAG_BYTES;
    for (let i = 0; i < DIGEST_BYTES; i++) if (chunk[at + i] !== digest[i]) return false;
    return true;
  }

  private bucketOfEntry(entry: number): number {
    const chunk = this.chunks[entry >>> this.chunkShift]!;
    return bucketOf(chunk, (entry & this.chunkMask) * this.entryBytes + FLAG_BYTES);
  }

  private insert(entry: number, bucket: number): void {
    const index = this.index;
    const mask = index.length - 1;
    let slot = bucket & mask;
    while (index[slot] !== 0) slot = (slot + 1) & mask;
    index[slot] = entry + 1;
  }

  /** Removes an entry's slot, moving later slots of its probe run back so that no lookup stops short. */
  private unindex(entry: number): void {
    const index = this.index;
    const mask = index.length - 1;
    let hole = this.bucketOfEntry(entry) & mask;
    while (index[hole] !== entry + 1) {
      // Not indexed: a value writer threw before the entry was.
      if (index[hole] === 0) return;
      hole = (hole + 1) & mask;
    }
    for (let slot = (hole + 1) & mask; index[slot] !== 0; slot = (slot + 1) & mask) {
      const home = this.bucketOfEntry(index[slot]! - 1) & mask;
      // The slot's entry may move to the hole unless its home lies cyclically in (hole, slot].
      const homeAfterHole = hole <= slot ? home > hole && home <= slot : home > hole || home <= slot;
      if (!homeAfterHole) {
        index[hole] = index[slot]!;
        hole = slot;
      }
    }
    index[hole] = 0;
  }

  /** CLOCK: the first entry from the hand on that was not looked up since the hand last passed it. */
  private victim(): number {
    for (;;) {
      const entry = this.hand;
      this.hand = entry + 1 === this.capacity ? 0 : entry + 1;
      const chunk = this.chunks[entry >>> this.chunkShift]!;
      const at = (entry & this.chunkMask) * this.entryBytes;
      if (chunk[at] === 0) return entry;
      chunk[at] = 0;
    }
  }

  private addChunk(): void {
    const first = this.chunks.length << this.chunkShift;
    const entries = Math.min(this.chunkMask + 1, this.capacity - first);
    this.chunks.push(new Uint8Array(entries * this.entryBytes));
  }

  private growIndex(): void {
    this.index = new Int32Array(this.index.length * 2);
    for (let entry = 0; entry < this.count; entry++) this.insert(entry, this.bucketOfEntry(entry));
  }
}

/** Index slots for `entries` at a load of at most one half: a power of two. */
function indexSlotsFor(entries: number): number {
  let slots = MIN_INDEX_SLOTS;
  while (slots < entries * 2) slots *= 2;
  return slots;
}

/** Bytes of a memo of `entries` entries: its chunks and its index at its largest. */
const slabBytes = (entries: number, entryBytes: number): number =>
  entries * entryBytes + indexSlotsFor(entries) * INDEX_SLOT_BYTES;

/** The most entries whose chunks and index fit `budget` (0 when not even the smallest index does). */
function largestCapacity(budget: number, entryBytes: number): number {
  let low = 0;
  let high = Math.floor(budget / entryBytes);
  if (slabBytes(0, entryBytes) > budget) return 0;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (slabBytes(middle, entryBytes) <= budget) low = middle;
    else high = middle - 1;
  }
  return low;
}

let seed: number | undefined;

/**
 * Drawn on first use, not at module load: Workers refuse random values in
 * global scope. Math.random serves where getRandomValues is missing; the seed
 * only has to be unknown outside the process.
 */
function hashSeed(): number {
  if (seed === undefined) {
    try {
      seed = globalThis.crypto.getRandomValues(new Uint32Array(1))[0]! | 0;
    } catch {
      seed = (Math.random() * 0x1_0000_0000) | 0;
    }
  }
  return seed;
}

/**
 * Index hash of the digest at `offset` in `bytes` (exported for tests that
 * need digests sharing an index position): all 32 bytes mixed
 * with the seed (multiply-xorshift rounds, murmur3's finalizer). The digest
 * is sha256 output, so its words cannot be chosen to cancel in the mixing.
 */
export function bucketOf(bytes: Uint8Array, offset = 0): number {
  let h = hashSeed();
  for (let i = offset; i < offset + DIGEST_BYTES; i += 4) {
    const word = bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
    h = Math.imul(h ^ word, 0x9e3779b1);
    h ^= h >>> 15;
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A field of up to 255 ASCII characters (a base58 address: 32–44) and its length byte. */
export const asciiFieldBytes = (maxChars: number): number => 1 + maxChars;

/** Writes ASCII `text` as a length byte and its characters; `text` must fit the field it was sized for. */
export function writeAscii(slab: Uint8Array, offset: number, text: string): void {
  slab[offset] = text.length;
  for (let i = 0; i < text.length; i++) slab[offset + 1 + i] = text.charCodeAt(i);
}

/** ASCII is valid UTF-8, and engines decode short UTF-8 faster than String.fromCharCode over the bytes (~90 vs ~180 ns for 44). */
const asciiDecoder = new TextDecoder();

export function readAscii(slab: Uint8Array, offset: number): string {
  return asciiDecoder.decode(slab.subarray(offset + 1, offset + 1 + slab[offset]!));
}
