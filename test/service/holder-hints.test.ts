import type { Address } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { HolderHintCache } from "../../src/service/holder-hints.js";

const domain = "Crf8hzfthWGbGbLTVCiqRqV5MVnbpHB1L9KQMd6gsinb" as Address;
const account = "2fE2xXJfyqB5PcvKk9xhUtf1YfoWX8cxbDxkqjERjuEi" as Address;
const holder = "HKKp49qGWXd639QsuH7JiLijfVW5UtCVY4s1n2HANwEA" as Address;

describe("HolderHintCache", () => {
  it("gives one endpoint the same accessors every time, and keeps each endpoint's hints apart", () => {
    const cache = new HolderHintCache(60_000);
    const a = cache.for("https://a.example/");
    expect(cache.for("https://a.example/")).toBe(a);
    a.set(domain, account);
    a.holders!.set(domain, holder);
    expect(cache.for("https://a.example/").get(domain)).toBe(account);
    expect(cache.for("https://a.example/").holders!.get(domain)).toBe(holder);
    expect(cache.for("https://b.example/").get(domain)).toBeUndefined();
    expect(cache.for("https://b.example/").holders!.get(domain)).toBeUndefined();
    a.delete(domain);
    expect(cache.for("https://a.example/").get(domain)).toBeUndefined();
  });

  it("keeps the hints when the accessors of many endpoints are forgotten", () => {
    const cache = new HolderHintCache(0);
    const first = cache.for("https://first.example/");
    first.set(domain, account);
    expect(first.holders).toBeUndefined();
    for (let i = 0; i < 200; i++) cache.for(`https://override-${i}.example/`).get(domain);
    const again = cache.for("https://first.example/");
    expect(again).not.toBe(first);
    expect(again.get(domain)).toBe(account);
  });
});
