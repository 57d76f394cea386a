/**
 * A least-recently-used memo of pure results, bounded by an estimate of the
 * bytes it holds, for the derivations and curve checks of the resolve path.
 *
 * One insertion-ordered Map is the whole structure: a hit moves its entry to
 * the end, eviction takes from the front. An entry costs its Map slot (about
 * 48 bytes with the table's slack) besides its strings, half of what a linked
 * LRU with per-entry arrays costs, which decides whether a working set of
 * 100,000 names fits a budget an operator can afford.
 */
export interface MemoStats {
  readonly entries: number;
  readonly bytes: number;
  readonly budget: number;
}

export class ByteMemo<V> {
  private readonly entries = new Map<string, V>();
  private bytes = 0;

  /** @param sizeOf estimated bytes of one entry, its strings included, so the budget holds for keys of any length. */
  constructor(
    readonly budgetBytes: number,
    private readonly sizeOf: (key: string, value: V) => number,
  ) {}

  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    if (this.entries.has(key)) return;
    const size = this.sizeOf(key, value);
    if (size > this.budgetBytes) return;
    this.entries.set(key, value);
    this.bytes += size;
    while (this.bytes > this.budgetBytes) {
      const [oldestKey, oldestValue] = this.entries.entries().next().value!;
      this.entries.delete(oldestKey);
      this.bytes -= this.sizeOf(oldestKey, oldestValue);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  /** Estimated bytes held: what the budget is checked against. */
  get heldBytes(): number {
    return this.bytes;
  }

  /** Entries and estimated bytes against the budget, for benchmarks and tests. */
  stats(): MemoStats {
    return { entries: this.entries.size, bytes: this.bytes, budget: this.budgetBytes };
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }
}

/** A Map slot of one entry with the hash table's slack and its deleted slots awaiting a rehash. */
export const MAP_SLOT_BYTES = 48;

const TWO_BYTE = /[^\u0000-\u00ff]/;

/** V8 heap bytes of a string: a 16-byte header and its characters (one byte each when all are latin1), rounded to 8. */
export function stringBytes(text: string): number {
  const content = TWO_BYTE.test(text) ? text.length * 2 : text.length;
  return 16 + ((content + 7) & ~7);
}
