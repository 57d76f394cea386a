import { sha256 } from "@noble/hashes/sha2.js";
import { describe, expect, it } from "vitest";
import { bucketOf, DIGEST_BYTES, readAscii, SlabMemo, writeAscii } from "../../src/sns/slab-memo.js";
import { createRng } from "../../testkit/rng.js";

// Values here are one 32-bit number, so any entry's value tells which key wrote it.
const VALUE_BYTES = 4;
const readNumber = (slab: Uint8Array, offset: number) => new DataView(slab.buffer, slab.byteOffset).getUint32(offset);
const writeNumber = (value: number) => (slab: Uint8Array, offset: number) => {
  new DataView(slab.buffer, slab.byteOffset).setUint32(offset, value);
};
const digestOf = (key: string) => sha256(new TextEncoder().encode(key));

/** Smallest budget whose memo holds exactly `entries` entries (index of 16 slots up to 8 entries). */
const budgetFor = (entries: number) => entries * (1 + DIGEST_BYTES + VALUE_BYTES) + 16 * 4;

describe("SlabMemo", () => {
  it("gives back what was set, and nothing for keys never set", () => {
    const memo = new SlabMemo(64 * 1024, VALUE_BYTES);
    memo.set(digestOf("a"), writeNumber(1));
    memo.set(digestOf("b"), writeNumber(2));
    expect(memo.get(digestOf("a"), readNumber)).toBe(1);
    expect(memo.get(digestOf("b"), readNumber)).toBe(2);
    expect(memo.get(digestOf("c"), readNumber)).toBeUndefined();
    expect(memo.size).toBe(2);
  });

  it("compares the whole digest: one differing in its last byte is another key", () => {
    const memo = new SlabMemo(64 * 1024, VALUE_BYTES);
    const digest = digestOf("a");
    const neighbour = digest.slice();
    neighbour[DIGEST_BYTES - 1] = neighbour[DIGEST_BYTES - 1]! ^ 1;
    memo.set(digest, writeNumber(1));
    expect(memo.get(neighbour, readNumber)).toBeUndefined();
    memo.set(neighbour, writeNumber(2));
    expect(memo.get(digest, readNumber)).toBe(1);
    expect(memo.get(neighbour, readNumber)).toBe(2);
  });

  it("keeps the first value of a key set twice, counted once", () => {
    const memo = new SlabMemo(64 * 1024, VALUE_BYTES);
    memo.set(digestOf("k"), writeNumber(1));
    const bytes = memo.heldBytes;
    memo.set(digestOf("k"), writeNumber(2));
    expect(memo.get(digestOf("k"), readNumber)).toBe(1);
    expect(memo.size).toBe(1);
    expect(memo.heldBytes).toBe(bytes);
  });

  it("never allocates past its budget under endless distinct keys, and fills it", () => {
    const budget = 64 * 1024;
    const memo = new SlabMemo(budget, VALUE_BYTES);
    for (let i = 0; i < 20_000; i++) {
      memo.set(digestOf(`name-${i}`), writeNumber(i));
      if (memo.heldBytes > budget) throw new Error(`${memo.heldBytes} bytes held after ${i} keys`);
      if (memo.size > memo.capacity) throw new Error(`${memo.size} entries after ${i} keys`);
    }
    expect(memo.size).toBe(memo.capacity);
    // The index at a load of at most one half costs 8-16 bytes an entry besides the entry itself.
    expect(memo.capacity).toBeGreaterThan(budget / (memo.entryBytes + 16));
    let held = 0;
    for (let i = 0; i < 20_000; i++) {
      const value = memo.get(digestOf(`name-${i}`), readNumber);
      if (value === undefined) continue;
      expect(value).toBe(i);
      held++;
    }
    expect(held).toBe(memo.capacity);
  });

  it("allocates as entries arrive: a few entries under a large budget take a few hundred KB", () => {
    const memo = new SlabMemo(32 * 1024 * 1024, 180);
    expect(memo.heldBytes).toBeLessThan(1024);
    for (let i = 0; i < 10; i++) memo.set(digestOf(`n${i}`), () => {});
    expect(memo.heldBytes).toBeLessThan(300 * 1024);
    expect(memo.stats()).toEqual({ entries: 10, bytes: memo.heldBytes, budget: 32 * 1024 * 1024 });
  });

  it("holds a working set that fits its budget without losing any of it", () => {
    const memo = new SlabMemo(1024 * 1024, VALUE_BYTES);
    const names = Array.from({ length: 5_000 }, (_, i) => `n${i}`);
    names.forEach((name, i) => memo.set(digestOf(name), writeNumber(i)));
    for (let pass = 0; pass < 3; pass++) {
      names.forEach((name, i) => expect(memo.get(digestOf(name), readNumber)).toBe(i));
    }
    expect(memo.size).toBe(names.length);
  });

  it("keeps entries that are looked up again while one-off keys stream through", () => {
    const memo = new SlabMemo(16 * 1024, VALUE_BYTES);
    memo.set(digestOf("hot"), writeNumber(7));
    for (let i = 0; i < 50_000; i++) {
      memo.set(digestOf(`cold-${i}`), writeNumber(i));
      if (i % 20 === 0) expect(memo.get(digestOf("hot"), readNumber)).toBe(7);
    }
    expect(memo.get(digestOf("cold-0"), readNumber)).toBeUndefined();
  });

  it("replaces, when full, the first entry from the hand on that was not looked up again (CLOCK)", () => {
    const memo = new SlabMemo(budgetFor(4), VALUE_BYTES);
    expect(memo.capacity).toBe(4);
    const keys = ["k0", "k1", "k2", "k3", "k4", "k5"].map(digestOf);
    keys.slice(0, 4).forEach((key, i) => memo.set(key, writeNumber(i)));
    expect(memo.get(keys[1]!, readNumber)).toBe(1);
    expect(memo.get(keys[3]!, readNumber)).toBe(3);
    memo.set(keys[4]!, writeNumber(4)); // the hand is at k0, not looked up: it goes
    expect(memo.get(keys[0]!, readNumber)).toBeUndefined();
    memo.set(keys[5]!, writeNumber(5)); // k1 was looked up: second chance; k2 goes
    expect(memo.get(keys[2]!, readNumber)).toBeUndefined();
    expect([1, 3, 4, 5].map((i) => memo.get(keys[i]!, readNumber))).toEqual([1, 3, 4, 5]);
    expect(memo.size).toBe(4);
  });

  it("finds keys that share an index position, across the end of the index, as entries come and go", () => {
    // Capacity 8, index of 16 slots: digests whose position is the last slot probe on from slot 0.
    const memo = new SlabMemo(budgetFor(8), VALUE_BYTES);
    expect(memo.capacity).toBe(8);
    const lastSlot: Uint8Array[] = [];
    const others: Uint8Array[] = [];
    for (let i = 0; lastSlot.length < 6 || others.length < 6; i++) {
      const digest = digestOf(`probe-${i}`);
      if ((bucketOf(digest) & 15) === 15) lastSlot.push(digest);
      else if (others.length < 6) others.push(digest);
    }
    const keys = [...lastSlot.slice(0, 6), ...others.slice(0, 2)];
    keys.forEach((key, i) => memo.set(key, writeNumber(i)));
    keys.forEach((key, i) => expect(memo.get(key, readNumber)).toBe(i));
    // Every entry was looked up: the hand clears them all and replaces the first, a last-slot key.
    memo.set(others[2]!, writeNumber(100));
    expect(memo.get(keys[0]!, readNumber)).toBeUndefined();
    keys.slice(1).forEach((key, i) => expect(memo.get(key, readNumber)).toBe(i + 1));
    expect(memo.get(others[2]!, readNumber)).toBe(100);
  });

  it("agrees with a model map through random sets and lookups over a small, crowded index", () => {
    const rng = createRng(31);
    const memo = new SlabMemo(budgetFor(8), VALUE_BYTES);
    const pool = Array.from({ length: 40 }, (_, i) => digestOf(`pool-${i}`));
    const values = new Map<number, number>();
    for (let step = 0; step < 20_000; step++) {
      const key = rng.int(0, pool.length - 1);
      if (rng.bool()) {
        const value = values.get(key) ?? step;
        memo.set(pool[key]!, writeNumber(value));
        values.set(key, value);
        expect(memo.get(pool[key]!, readNumber)).toBe(value);
      } else {
        const held = memo.get(pool[key]!, readNumber);
        if (held !== undefined) expect(held).toBe(values.get(key));
      }
      if (step % 100 === 0) {
        // Every entry stays reachable through the index: as many keys found as entries held.
        const found = pool.filter((digest) => memo.get(digest, readNumber) !== undefined).length;
        expect(found).toBe(memo.size);
        expect(memo.size).toBeLessThanOrEqual(8);
      }
    }
  });

  it("holds nothing when the budget cannot hold one entry and its index", () => {
    const memo = new SlabMemo(32, VALUE_BYTES);
    memo.set(digestOf("a"), writeNumber(1));
    expect(memo.get(digestOf("a"), readNumber)).toBeUndefined();
    expect(memo.heldBytes).toBeLessThanOrEqual(32);
  });
});

describe("ASCII fields", () => {
  it("give back base58 addresses of every length as written", () => {
    const slab = new Uint8Array(100);
    for (const text of ["", "1".repeat(32), "So11111111111111111111111111111111111111112", "z".repeat(44)]) {
      writeAscii(slab, 3, text);
      expect(readAscii(slab, 3)).toBe(text);
    }
  });
});
