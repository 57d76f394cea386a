/**
 * A Map and a Set for long-lived collections whose entries come and go with requests (reads in
 * flight, resolutions shared, responses being written), kept from dragging those requests into
 * V8's old generation.
 *
 * V8 never reuses a Map's or Set's hash table: deletions leave holes until the table is rebuilt
 * (it is, as entries come and go, even at a steady size), and `clear()` builds a new one. An
 * obsolete table keeps a pointer to its successor, and its entries, for iterators still walking
 * it. Once one table of a long-lived collection has been promoted, a scavenge treats that dead
 * table as live (the young objects an old one points to are roots until the next full
 * collection) and reaches every later table through the chain: every table, and everything its
 * entries held when it was rebuilt, is copied and then promoted, for full collections to free.
 * docs/performance.md ("Collections whose entries come and go") has the measurements.
 *
 * These move their entries to a fresh collection after as many deletions as the larger of
 * `RENEW_AFTER` and their size (so the copying costs at most one insertion per deletion), and
 * `clear()` starts a fresh one: the old chain ends at a table nothing newer is linked to.
 * An iteration that runs across a renewal walks the entries as they were before it; deleting
 * the entry being visited is safe.
 */
export const RENEW_AFTER = 256;

/** What both collections share: the deletions counted, and the move to a fresh collection. */
abstract class Renewed<E, C extends { readonly size: number; delete(element: E): boolean }> {
  protected inner: C;
  private deletions = 0;

  constructor(private readonly fresh: (from?: C) => C) {
    this.inner = fresh();
  }

  get size(): number {
    return this.inner.size;
  }

  delete(element: E): boolean {
    if (!this.inner.delete(element)) return false;
    if (++this.deletions >= Math.max(RENEW_AFTER, this.inner.size)) {
      this.deletions = 0;
      this.inner = this.fresh(this.inner);
    }
    return true;
  }

  clear(): void {
    this.deletions = 0;
    this.inner = this.fresh();
  }
}

export class RenewedMap<K, V> extends Renewed<K, Map<K, V>> {
  constructor() {
    super((from) => new Map(from));
  }

  get(key: K): V | undefined {
    return this.inner.get(key);
  }

  has(key: K): boolean {
    return this.inner.has(key);
  }

  set(key: K, value: V): this {
    this.inner.set(key, value);
    return this;
  }

  values(): MapIterator<V> {
    return this.inner.values();
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.inner[Symbol.iterator]();
  }
}

export class RenewedSet<T> extends Renewed<T, Set<T>> {
  constructor() {
    super((from) => new Set(from));
  }

  has(member: T): boolean {
    return this.inner.has(member);
  }

  add(member: T): this {
    this.inner.add(member);
    return this;
  }

  values(): SetIterator<T> {
    return this.inner.values();
  }

  [Symbol.iterator](): SetIterator<T> {
    return this.inner[Symbol.iterator]();
  }
}
