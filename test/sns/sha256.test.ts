import { createHash } from "node:crypto";
import { sha256 as nobleSha256 } from "@noble/hashes/sha2.js";
import { describe, expect, it } from "vitest";
import { sha256 } from "../../src/sns/sha256.js";
import { createRng, freshSeed } from "../../testkit/rng.js";

/*
 * The derivations' SHA-256 (src/sns/sha256.ts, a bypass of @noble/hashes'
 * `sha256`: README, Bypasses) gives the digest `@noble/hashes` and
 * `node:crypto` give, for every input length through four blocks (each
 * place the padding can fall: before, at and after byte 55 of a block),
 * longer ones, the inputs derivations hash, and a call between two others
 * (its scratch arrays leave nothing behind).
 */

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const nodeDigest = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe("sha256 (src/sns/sha256.ts)", () => {
  const seed = freshSeed();
  it(`equals @noble/hashes and node:crypto for random bytes of every length up to 256, and longer (seed ${seed})`, () => {
    const rng = createRng(seed);
    const lengths = [
      ...Array.from({ length: 257 }, (_, n) => n),
      ...Array.from({ length: 200 }, () => rng.int(257, 5000)),
      65_536,
      1_000_003,
    ];
    for (const length of lengths) {
      for (let round = 0; round < 3; round++) {
        const message = rng.bytes(length);
        const digest = hex(sha256(message));
        expect(digest, `length ${length}`).toBe(hex(nobleSha256(message)));
        expect(digest, `length ${length}`).toBe(nodeDigest(message));
      }
    }
  });

  it("equals them for constant bytes, a subarray, and the inputs of name hashes and PDA seeds", () => {
    const inputs = [
      new Uint8Array(64).fill(0xff),
      new Uint8Array(119).fill(0x80),
      new Uint8Array(55),
      new Uint8Array(200).fill(7).subarray(3, 120),
      new TextEncoder().encode("SPL Name Service" + "bonfida"),
      new TextEncoder().encode("SPL Name Service" + "ünïcödé.名前"),
      // A PDA's seeds: hashed name, class, parent, bump, program, marker (32 + 32 + 32 + 1 + 32 + 21 bytes).
      new Uint8Array(150).map((_, i) => (i * 37) & 0xff),
    ];
    for (const message of inputs) {
      expect(hex(sha256(message))).toBe(nodeDigest(message));
      expect(hex(sha256(message))).toBe(hex(nobleSha256(message)));
    }
    expect(hex(sha256(new Uint8Array(0)))).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  });

  it("returns a new array each call: a digest kept is not changed by the next", () => {
    const first = sha256(new Uint8Array([1]));
    const kept = hex(first);
    const second = sha256(new Uint8Array(100).fill(2));
    expect(second).not.toBe(first);
    expect(hex(first)).toBe(kept);
  });
});
