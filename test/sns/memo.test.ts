import { describe, expect, it } from "vitest";
import { ByteMemo, MAP_SLOT_BYTES, stringBytes } from "../../src/sns/memo.js";

const sizeOf = (key: string, value: string) => stringBytes(key) + stringBytes(value) + MAP_SLOT_BYTES;

describe("ByteMemo", () => {
  it("gives back what was set", () => {
    const memo = new ByteMemo<string>(10_000, sizeOf);
    memo.set("a", "1");
    memo.set("b", "2");
    expect(memo.get("a")).toBe("1");
    expect(memo.get("b")).toBe("2");
    expect(memo.get("c")).toBeUndefined();
  });

  it("stays within its byte budget under endless distinct keys", () => {
    const budget = 64 * 1024;
    const memo = new ByteMemo<string>(budget, sizeOf);
    for (let i = 0; i < 200_000; i++) {
      memo.set(`name-${i}`, `value-${i}`.repeat(1 + (i % 7)));
      if (memo.heldBytes > budget) throw new Error(`${memo.heldBytes} bytes held after ${i} keys`);
    }
    expect(memo.size).toBeGreaterThan(0);
    expect(memo.size).toBeLessThan(budget / MAP_SLOT_BYTES);
  });

  it("holds a working set that fits its budget without losing any of it", () => {
    const memo = new ByteMemo<string>(1024 * 1024, sizeOf);
    const names = Array.from({ length: 5_000 }, (_, i) => `n${i}`);
    for (const name of names) memo.set(name, `${name}!`);
    for (let pass = 0; pass < 3; pass++) {
      for (const name of names) expect(memo.get(name)).toBe(`${name}!`);
    }
    expect(memo.size).toBe(names.length);
  });

  it("keeps entries that are looked up again while one-off keys stream through", () => {
    const memo = new ByteMemo<string>(16 * 1024, sizeOf);
    memo.set("hot", "kept");
    for (let i = 0; i < 50_000; i++) {
      memo.set(`cold-${i}`, "x");
      if (i % 20 === 0) expect(memo.get("hot")).toBe("kept");
    }
    expect(memo.get("cold-0")).toBeUndefined();
  });

  it("evicts the least recently used entry first", () => {
    const memo = new ByteMemo<string>(sizeOf("k0", "v") * 4, sizeOf);
    for (const key of ["k0", "k1", "k2", "k3"]) memo.set(key, "v");
    memo.set("k4", "v"); // over budget: k0, the least recently used, goes
    expect(memo.get("k0")).toBeUndefined();
    expect(memo.get("k1")).toBe("v"); // used again: now the most recent
    memo.set("k5", "v"); // k2 is now the least recently used
    expect(memo.get("k2")).toBeUndefined();
    expect(memo.get("k1")).toBe("v");
  });

  it("refuses an entry larger than the whole budget, and counts an entry set twice once", () => {
    const memo = new ByteMemo<string>(100, sizeOf);
    memo.set("big", "x".repeat(200));
    expect(memo.get("big")).toBeUndefined();
    expect(memo.heldBytes).toBe(0);
    memo.set("k", "v");
    memo.set("k", "v");
    expect(memo.heldBytes).toBe(sizeOf("k", "v"));
  });
});

describe("stringBytes", () => {
  it("counts latin1 text one byte a character and other text two, plus the header, rounded to 8", () => {
    expect(stringBytes("")).toBe(16);
    expect(stringBytes("abc")).toBe(24);
    expect(stringBytes("é".repeat(9))).toBe(32);
    expect(stringBytes("日本")).toBe(24);
    expect(stringBytes("a".repeat(224))).toBe(240);
  });
});
