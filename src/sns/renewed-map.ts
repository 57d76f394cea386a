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

export class RenewedMap<K, V> {
  private entries = new Map<K, V>();
  private deletions = 0;

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  set(key: K, value: V): this {
    this.entries.set(key, value);
    return this;
  }

  delete(key: K): boolean {
    if (!this.entries.delete(key)) return false;
    if (++this.deletions >= Math.max(RENEW_AFTER, this.entries.size)) {
      this.deletions = 0;
      this.entries = new Map(this.entries);
    }
    return true;
  }

  clear(): void {
    this.deletions = 0;
    this.entries = new Map();
  }

  values(): MapIterator<V> {
    return this.entries.values();
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries[Symbol.iterator]();
  }
}

export class RenewedSet<T> {
  private members = new Set<T>();
  private deletions = 0;

  get size(): number {
    return this.members.size;
  }

  has(member: T): boolean {
    return this.members.has(member);
  }

  add(member: T): this {
    this.members.add(member);
    return this;
  }

  delete(member: T): boolean {
    if (!this.members.delete(member)) return false;
    if (++this.deletions >= Math.max(RENEW_AFTER, this.members.size)) {
      this.deletions = 0;
      this.members = new Set(this.members);
    }
    return true;
  }

  clear(): void {
    this.deletions = 0;
    this.members = new Set();
  }

  values(): SetIterator<T> {
    return this.members.values();
  }

  [Symbol.iterator](): SetIterator<T> {
    return this.members[Symbol.iterator]();
  }
}
