import { describe, expect, it } from "vitest";
import { RENEW_AFTER, RenewedMap, RenewedSet } from "../../src/sns/renewed-map.js";

describe("RenewedMap and RenewedSet behave as a Map and a Set", () => {
  it("across renewals: same entries, sizes and order as a Map fed the same operations", () => {
    const renewed = new RenewedMap<number, string>();
    const plain = new Map<number, string>();
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0);
    for (let i = 0; i < 20 * RENEW_AFTER; i++) {
      const key = (next() >>> 16) % 300;
      if ((next() >>> 16) % 3 === 0) expect(renewed.delete(key)).toBe(plain.delete(key));
      else {
        renewed.set(key, `v${i}`);
        plain.set(key, `v${i}`);
      }
      expect(renewed.size).toBe(plain.size);
      expect(renewed.get(key)).toBe(plain.get(key));
      expect(renewed.has(key)).toBe(plain.has(key));
    }
    expect([...renewed]).toEqual([...plain]);
    expect([...renewed.values()]).toEqual([...plain.values()]);
    renewed.clear();
    expect(renewed.size).toBe(0);
    expect(renewed.delete(1)).toBe(false);
  });

  it("a Set: membership, sizes, order and clear", () => {
    const renewed = new RenewedSet<string | undefined>();
    const plain = new Set<string | undefined>();
    for (let i = 0; i < 10 * RENEW_AFTER; i++) {
      const member = i % 97 === 0 ? undefined : `m${i % 500}`;
      renewed.add(member);
      plain.add(member);
      if (i % 2 === 1) {
        const gone = `m${(i * 7) % 500}`;
        expect(renewed.delete(gone)).toBe(plain.delete(gone));
      }
      expect(renewed.size).toBe(plain.size);
    }
    expect([...renewed]).toEqual([...plain]);
    expect([...renewed.values()]).toEqual([...plain.values()]);
    expect(renewed.has(undefined)).toBe(true);
    renewed.clear();
    expect([...renewed]).toEqual([]);
  });

  it("an iteration across a renewal visits each entry once, deleting the one it visits", () => {
    const renewed = new RenewedSet<number>();
    for (let i = 0; i < 3 * RENEW_AFTER; i++) renewed.add(i);
    const visited: number[] = [];
    for (const member of renewed) {
      visited.push(member);
      renewed.delete(member);
    }
    expect(visited).toEqual(Array.from({ length: 3 * RENEW_AFTER }, (_, i) => i));
    expect(renewed.size).toBe(0);
  });
});
