import { sha256 } from "@noble/hashes/sha2.js";
import { describe, expect, it } from "vitest";
import { MAX_OPERAND, jacobi, jacobiBigInt } from "../../src/sns/jacobi.js";

const P = 2n ** 255n - 19n;

/** A 256-bit number from a seed, for reproducible operands. */
function numberOf(seed: number): bigint {
  const bytes = sha256(new Uint8Array([seed & 0xff, (seed >> 8) & 0xff, (seed >> 16) & 0xff, 0x1a]));
  return BigInt(`0x${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`);
}

/** Euler's criterion: a^((p−1)/2) mod p is 1, p − 1 or 0. */
function euler(a: bigint, p: bigint): number {
  let result = 1n;
  let base = ((a % p) + p) % p;
  for (let e = (p - 1n) / 2n; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * base) % p;
    base = (base * base) % p;
  }
  return result === 0n ? 0 : result === 1n ? 1 : -1;
}

describe("jacobi (30-bit limbs) agrees with the BigInt algorithm and, modulo 2^255 − 19, with Euler's criterion", () => {
  it("modulo 2^255 − 19, on 3,000 operands below and above p", () => {
    for (let i = 0; i < 3_000; i++) {
      const a = numberOf(i);
      const expected = euler(a, P);
      if (jacobi(a, P) !== expected || jacobiBigInt(a, P) !== expected) expect.fail(`disagrees on ${a}`);
    }
  });

  it("at the edges: 0, 1, 2, p − 1, p, multiples of p, limb boundaries", () => {
    const operands = [
      0n,
      1n,
      2n,
      3n,
      4n,
      P - 1n,
      P - 2n,
      P,
      2n * P,
      P + 1n,
      2n ** 30n,
      2n ** 60n - 1n,
      2n ** 254n,
      -1n,
    ];
    for (const a of operands) expect([a, jacobi(a, P)]).toEqual([a, euler(a, P)]);
  });

  it("for odd composite and small moduli, and moduli wider than the limbs", () => {
    const moduli = [
      1n,
      3n,
      9n,
      15n,
      21n,
      1_000_001n,
      2n ** 61n - 1n,
      (2n ** 127n - 1n) * 3n,
      2n ** 269n + 1n,
      // Either side of the widest modulus the limbs hold: the limbs up to it, the BigInt algorithm past it.
      2n ** 270n - 1n,
      2n ** 270n + 1n,
      2n ** 270n + 3n,
      2n ** 300n + 7n,
    ];
    for (const n of moduli) {
      for (let i = 0; i < 200; i++) {
        const a = numberOf(i + 10_000) % (n * 5n);
        if (jacobi(a, n) !== jacobiBigInt(a, n)) expect.fail(`(${a}/${n}) disagrees`);
      }
    }
    expect(() => jacobi(3n, 4n)).toThrow(RangeError);
  });

  it("takes the limbs for every field element, and answers 0 when a and n share a factor whose low limb is 1", () => {
    expect(P <= MAX_OPERAND).toBe(true);
    expect(MAX_OPERAND).toBe(2n ** 270n - 1n);
    const g = 2n ** 30n + 1n;
    expect(jacobi(g, 3n * g)).toBe(0);
    expect(jacobi(5n * g, 7n * g)).toBe(0);
    expect(jacobi(g * g + g, 3n * g)).toBe(jacobiBigInt(g * g + g, 3n * g));
  });
});
