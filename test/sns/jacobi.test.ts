import { sha256 } from "@noble/hashes/sha2.js";
import { describe, expect, it } from "vitest";
import { LIMBS, LIMB_BITS, jacobi, jacobiBigInt, posdivsteps } from "../../src/sns/jacobi.js";

const P = 2n ** 255n - 19n;

/** A 256-bit number from a seed, for reproducible operands. */
function numberOf(seed: number): bigint {
  const bytes = sha256(new Uint8Array([seed & 0xff, (seed >> 8) & 0xff, (seed >> 16) & 0xff, 0x1a]));
  return BigInt(`0x${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`);
}

/** The limbs jacobi() takes: LIMBS of LIMB_BITS bits, least significant first. */
function limbs(value: bigint): Float64Array {
  const out = new Float64Array(LIMBS);
  for (let i = 0; i < LIMBS; i++) out[i] = Number((value >> BigInt(LIMB_BITS * i)) & ((1n << BigInt(LIMB_BITS)) - 1n));
  return out;
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

const P_LIMBS = limbs(P);

/** Operands below p that stress the limbs: near 0 and p, powers of two, runs of full limbs. */
function edgeOperands(): bigint[] {
  const operands: bigint[] = [];
  for (let k = 1n; k <= 2_000n; k++) operands.push(k, P - k);
  for (let bit = 0n; bit < 255n; bit++) operands.push(1n << bit, (1n << bit) - 1n, (1n << bit) + 1n);
  const limbMask = (1n << BigInt(LIMB_BITS)) - 1n;
  for (let i = 0; i < LIMBS; i++) {
    const shift = BigInt(LIMB_BITS * i);
    // All-ones limbs up to limb i, one full limb at i, and a full limb with the rest of p below it.
    operands.push((1n << (shift + BigInt(LIMB_BITS))) - 1n, limbMask << shift, P - (limbMask << shift));
  }
  return operands.map((a) => ((a % P) + P) % P).filter((a) => a !== 0n);
}

describe("jacobi (batched posdivsteps on 26-bit limbs) agrees with the BigInt algorithm and Euler's criterion", () => {
  it("modulo 2^255 − 19, on 3,000 generated operands, with Euler's criterion", () => {
    for (let i = 0; i < 3_000; i++) {
      const a = numberOf(i) % P || 1n;
      const expected = euler(a, P);
      if (jacobi(limbs(a), P_LIMBS) !== expected || jacobiBigInt(a, P) !== expected) expect.fail(`disagrees on ${a}`);
    }
  });

  it("modulo 2^255 − 19, on 30,000 generated 255-bit operands, with the BigInt algorithm", () => {
    let squares = 0;
    for (let i = 0; i < 30_000; i++) {
      const a = numberOf(i + 100_000) % P || 1n;
      const symbol = jacobi(limbs(a), P_LIMBS);
      if (symbol !== jacobiBigInt(a, P)) expect.fail(`disagrees on ${a}`);
      if (symbol === 1) squares++;
    }
    // Half of all nonzero residues are squares: a symbol that answered one way only would show here.
    expect(squares).toBeGreaterThan(14_000);
    expect(squares).toBeLessThan(16_000);
  });

  it("at the edges: near 0 and p, powers of two, all-ones and full limbs", () => {
    const operands = edgeOperands();
    expect(operands.length).toBeGreaterThan(4_700);
    for (const a of operands) {
      if (jacobi(limbs(a), P_LIMBS) !== jacobiBigInt(a, P)) expect.fail(`disagrees on ${a}`);
    }
    expect(jacobi(limbs(P - 1n), P_LIMBS)).toBe(euler(P - 1n, P));
  });

  it("on squares (1) and non-squares (−1: 2 is not a square modulo p)", () => {
    expect(euler(2n, P)).toBe(-1);
    for (let i = 0; i < 2_000; i++) {
      const x = numberOf(i + 200_000) % P || 1n;
      const square = (x * x) % P;
      expect(jacobi(limbs(square), P_LIMBS)).toBe(1);
      expect(jacobi(limbs((2n * square) % P), P_LIMBS)).toBe(-1);
    }
  });

  it("for odd composite and small moduli, up to the widest the limbs hold (2^260 − 1)", () => {
    const moduli = [
      3n,
      9n,
      15n,
      21n,
      1_000_001n,
      2n ** 61n - 1n,
      (2n ** 127n - 1n) * 3n,
      2n ** 255n + 95n,
      2n ** 259n + 1n,
      2n ** 260n - 1n,
      2n ** 260n - 3n,
    ];
    for (const n of moduli) {
      for (let i = 0; i < 300; i++) {
        const a = (numberOf(i + 10_000) * numberOf(i + 20_000)) % n;
        if (a === 0n) continue;
        if (jacobi(limbs(a), limbs(n)) !== jacobiBigInt(a, n)) expect.fail(`(${a}/${n}) disagrees`);
      }
    }
    expect(jacobi(limbs(1n), limbs(3n))).toBe(1);
    expect(jacobi(limbs(2n), limbs(3n))).toBe(-1);
  });

  it("answers 0 through the BigInt algorithm when a and n share a factor (the steps never reach f = 1)", () => {
    const g = 2n ** 30n + 1n;
    expect(jacobi(limbs(g), limbs(3n * g))).toBe(0);
    expect(jacobi(limbs(5n * g), limbs(7n * g))).toBe(0);
    expect(jacobi(limbs((g * g + g) % (3n * g)), limbs(3n * g))).toBe(jacobiBigInt(g * g + g, 3n * g));
    const big = 2n ** 127n - 1n;
    expect(jacobi(limbs(big * 5n), limbs(big * 9n))).toBe(0);
    // Coprime again after a shared factor: the working numbers were reloaded, not left over.
    expect(jacobi(limbs(2n), P_LIMBS)).toBe(-1);
  });

  it("leaves its operands as they were", () => {
    const a = limbs(numberOf(7) % P);
    const copy = Float64Array.from(a);
    const pCopy = Float64Array.from(P_LIMBS);
    jacobi(a, P_LIMBS);
    expect(a).toEqual(copy);
    expect(P_LIMBS).toEqual(pCopy);
  });
});

describe("posdivsteps (the fast path, without the BigInt fallback)", () => {
  it("answers every operand modulo p itself, as the BigInt algorithm does", () => {
    for (let seed = 0; seed < 5_000; seed++) {
      const a = numberOf(seed) % P || 1n;
      expect(posdivsteps(limbs(a), P_LIMBS), String(a)).toBe(jacobiBigInt(a, P));
    }
    for (const a of [1n, 2n, 3n, P - 1n, P - 2n, 1n << 254n, (1n << 255n) - 20n]) {
      expect(posdivsteps(limbs(a), P_LIMBS), String(a)).toBe(jacobiBigInt(a, P));
    }
  });

  it("settles only at f = 1, not at a gcd whose lowest limb is 1 (the symbol is then 0, from the fallback)", () => {
    // gcd(a, n) = 2^26 + 1: its lowest limb is 1 and the next one too; f ends there and never reaches 1.
    const common = (1n << BigInt(LIMB_BITS)) + 1n;
    for (let seed = 0; seed < 20; seed++) {
      const m = (numberOf(seed) >> 30n) | 1n;
      const n = common * m;
      const a = (common * ((numberOf(seed + 1_000) >> 40n) | 1n)) % n || common;
      expect(posdivsteps(limbs(a), limbs(n))).toBe(0);
      expect(jacobi(limbs(a), limbs(n))).toBe(0);
    }
  });
});
