import { ed25519 } from "@noble/curves/ed25519.js";
import { describe, expect, it } from "vitest";
import { curveMemoStats, decodesAsPoint, isOnCurve, verifyEd25519 } from "../../src/sns/curve.js";
import {
  derivationMemoStats,
  deriveDomainKey,
  deriveNftRecordKey,
  deriveRecordV1Key,
  deriveRecordV2Key,
  deriveResolutionKeys,
  deriveTokenizedMint,
} from "../../src/sns/derive.js";
import { createRng } from "../../testkit/rng.js";

// The memos of the resolve path: answers equal the unmemoized ones, first
// lookup or repeat, and what they hold stays within their byte budgets.
// (Eviction under endless distinct keys is tested on SlabMemo itself, in
// slab-memo.test.ts: filling these budgets takes 100,000+ derivations.)

describe("resolution keys memo", () => {
  it("gives the same keys as the single derivations, on first lookup and on repeats, for names of every shape", () => {
    const rng = createRng(11);
    const names = Array.from({ length: 300 }, (_, i) => {
      const label = `memo-${i}-${rng.pick(["", "é", "日本", "🦀", "_-"])}`;
      return i % 3 === 0 ? `${label}.parent${i % 7}` : label;
    });
    const before = derivationMemoStats().resolutions;
    for (let pass = 0; pass < 2; pass++) {
      for (const name of names) {
        const domain = deriveDomainKey(name);
        expect(deriveResolutionKeys(name)).toEqual({
          domain,
          nftRecord: deriveNftRecordKey(domain),
          solV1: deriveRecordV1Key(domain, "SOL"),
          solV2: deriveRecordV2Key(domain, "SOL"),
          mint: deriveTokenizedMint(domain),
        });
      }
    }
    const after = derivationMemoStats().resolutions;
    expect(after.entries - before.entries).toBe(names.length);
    // Allocated in chunks of 1,024 entries of 213 bytes (four addresses and the name's digest; the mint is not kept).
    expect(after.bytes).toBeLessThan(after.entries * 213 + 300 * 1024);
    expect(after.bytes).toBeLessThanOrEqual(after.budget);
  });

  it("budgets room for 100,000 names", () => {
    const { resolutions } = derivationMemoStats();
    // 213 bytes an entry and at most 16 of index.
    expect(resolutions.budget / (213 + 16)).toBeGreaterThan(100_000);
  });
});

describe("curve memos", () => {
  it("answer on-curve checks as the decoding does, first and repeated, at 34 bytes an owner", () => {
    const rng = createRng(12);
    const keys = Array.from({ length: 400 }, () => rng.bytes(32));
    const before = curveMemoStats().onCurve;
    for (let pass = 0; pass < 2; pass++) {
      for (const key of keys) expect(isOnCurve(key)).toBe(decodesAsPoint(key));
    }
    const after = curveMemoStats().onCurve;
    expect(after.entries - before.entries).toBe(keys.length);
    expect(after.bytes).toBeLessThanOrEqual(after.budget);
    // A digest and a verdict, and at most 16 bytes of index.
    expect(after.budget / (34 + 16)).toBeGreaterThan(100_000);
  });

  it("remembers signature checks, valid and invalid alike", () => {
    const rng = createRng(13);
    const secret = rng.bytes(32);
    const publicKey = ed25519.getPublicKey(secret);
    const before = curveMemoStats().signatures;
    for (let i = 0; i < 20; i++) {
      const message = new TextEncoder().encode(`message ${i};`.padEnd(128, "0"));
      const signature = ed25519.sign(message, secret);
      const forged = signature.slice();
      forged[40] = forged[40]! ^ 1;
      for (let pass = 0; pass < 2; pass++) {
        expect(verifyEd25519(signature, message, publicKey)).toBe(true);
        expect(verifyEd25519(forged, message, publicKey)).toBe(false);
      }
    }
    const after = curveMemoStats().signatures;
    expect(after.entries - before.entries).toBe(40);
    expect(after.bytes).toBeLessThanOrEqual(after.budget);
  });
});

describe("signature memo keys", () => {
  const rng = createRng(14);
  const secret = rng.bytes(32);
  const publicKey = ed25519.getPublicKey(secret);
  const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

  it("keep lowercase-hex messages apart from raw messages that equal their packed bytes", () => {
    const inner = rng.bytes(64);
    const hexMessage = new TextEncoder().encode(hex(inner));
    const signature = ed25519.sign(hexMessage, secret);
    // Same signature over the raw bytes the hex packs to: must not reuse the hex message's answer.
    expect(verifyEd25519(signature, hexMessage, publicKey)).toBe(true);
    expect(verifyEd25519(signature, inner, publicKey)).toBe(false);
    const rawSignature = ed25519.sign(inner, secret);
    expect(verifyEd25519(rawSignature, inner, publicKey)).toBe(true);
    expect(verifyEd25519(rawSignature, hexMessage, publicKey)).toBe(false);
  });

  it("tell uppercase, odd-length and non-hex messages from lowercase hex", () => {
    const inner = rng.bytes(64);
    const lower = new TextEncoder().encode(hex(inner));
    const upper = new TextEncoder().encode(hex(inner).toUpperCase());
    const signature = ed25519.sign(lower, secret);
    for (let pass = 0; pass < 2; pass++) {
      expect(verifyEd25519(signature, lower, publicKey)).toBe(true);
      expect(verifyEd25519(signature, upper, publicKey)).toBe(false);
      expect(verifyEd25519(signature, lower.subarray(1), publicKey)).toBe(false);
    }
    const odd = new TextEncoder().encode("abc");
    expect(verifyEd25519(ed25519.sign(odd, secret), odd, publicKey)).toBe(true);
  });

  it("make one 34-byte entry per record checked, whatever the message's length, with room for 50,000+", () => {
    const message = new TextEncoder().encode(hex(rng.bytes(64)));
    const before = curveMemoStats().signatures;
    verifyEd25519(ed25519.sign(message, secret), message, publicKey);
    const after = curveMemoStats().signatures;
    expect(after.entries - before.entries).toBe(1);
    expect(after.budget / (34 + 16)).toBeGreaterThan(50_000);
  });
});
