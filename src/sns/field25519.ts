import { LIMB_BITS } from "./jacobi.js";

// Arithmetic modulo p = 2^255 − 19 on 16-bit limbs held in doubles, exact without BigInt: what the
// curve check of PDA candidates needs (src/sns/curve.ts `decodesAsPoint`), and the regrouping of a
// result into the limbs of the Jacobi symbol (src/sns/jacobi.ts).

/** The field prime 2^255 − 19. */
const P = 2n ** 255n - 19n;

/**
 * Field elements as 16 limbs of 16 bits in doubles (least significant first): a product's column
 * sums, 2^256 ≡ 38 folded in, stay below 2^53 for limbs up to 2^17, so every step is exact.
 */
export const FIELD_LIMBS = 16;
const FIELD_RADIX = 2 ** 16;
const INVERSE_FIELD_RADIX = 2 ** -16;
const JACOBI_RADIX = 2 ** LIMB_BITS;
const INVERSE_JACOBI_RADIX = 2 ** -LIMB_BITS;

/** A constant below 2^256 as field limbs. */
export function fieldLimbs(value: bigint): Float64Array {
  const limbs = new Float64Array(FIELD_LIMBS);
  for (let i = 0; i < FIELD_LIMBS; i++) limbs[i] = Number((value >> BigInt(16 * i)) & 0xffffn);
  return limbs;
}
export const P_LIMBS = fieldLimbs(P);

/** y ≥ p for limbs below 2^16 and y < 2^255: every limb at its maximum but the lowest, that one ≥ 0xffed. */
export function atLeastP(limbs: Float64Array): boolean {
  if (limbs[FIELD_LIMBS - 1] !== 0x7fff || limbs[0]! < 0xffed) return false;
  for (let i = 1; i < FIELD_LIMBS - 1; i++) if (limbs[i] !== 0xffff) return false;
  return true;
}

export function isOne(limbs: Float64Array): boolean {
  if (limbs[0] !== 1) return false;
  for (let i = 1; i < FIELD_LIMBS; i++) if (limbs[i] !== 0) return false;
  return true;
}

/** out ← a·b mod p, not yet reduced: limbs of a and b in [0, 2^17]; out is neither a nor b. */
export function multiply(out: Float64Array, a: Float64Array, b: Float64Array): void {
  // Limb k gathers the products of column k and, as 2^256 ≡ 38, 38 times those of column k + 16:
  // 16 products of at most 2^34 each side, below 2^44 in all.
  for (let k = 0; k < FIELD_LIMBS; k++) {
    let low = 0;
    let high = 0;
    for (let i = 0; i <= k; i++) low += a[i]! * b[k - i]!;
    for (let i = k + 1; i < FIELD_LIMBS; i++) high += a[i]! * b[k + FIELD_LIMBS - i]!;
    out[k] = low + 38 * high;
  }
}

/** Carries limbs in [0, 2^44) (what multiply() leaves) into the canonical form: limbs in [0, 2^16), value in [0, p). */
export function reduce(limbs: Float64Array): void {
  // Carry, 2^256 ≡ 38 folding what leaves the top limb into limb 0, until nothing leaves it: at most four
  // passes (from below 2^44 a limb, at most 38·2^28 into limb 0, then 38, then 38 only if a carry ran
  // through all 16 limbs, leaving them near 0). Then every limb is below 2^16.
  let top = 1;
  while (top !== 0) {
    top = 0;
    for (let i = 0; i < FIELD_LIMBS; i++) {
      const limb = limbs[i]! + top;
      top = Math.floor(limb * INVERSE_FIELD_RADIX);
      limbs[i] = limb - top * FIELD_RADIX;
    }
    limbs[0] = limbs[0]! + 38 * top;
  }
  // Below 2^256: bit 255 folds as 19 (2^255 ≡ 19), leaving a value below 2^255 + 19.
  const high = limbs[FIELD_LIMBS - 1]! >= 0x8000 ? 1 : 0;
  limbs[FIELD_LIMBS - 1] = limbs[FIELD_LIMBS - 1]! - high * 0x8000;
  addSmall(limbs, 19 * high);
  // At least p: subtract it, as adding 19 and dropping 2^255.
  if (limbs[FIELD_LIMBS - 1]! >= 0x8000 || atLeastP(limbs)) {
    addSmall(limbs, 19);
    limbs[FIELD_LIMBS - 1] = limbs[FIELD_LIMBS - 1]! - 0x8000;
  }
}

/** Adds a small nonnegative number to canonical-range limbs, carrying; the caller keeps the sum below 2^256. */
function addSmall(limbs: Float64Array, small: number): void {
  let carry = small;
  for (let i = 0; i < FIELD_LIMBS && carry !== 0; i++) {
    const limb = limbs[i]! + carry;
    carry = limb >= FIELD_RADIX ? 1 : 0;
    limbs[i] = limb - carry * FIELD_RADIX;
  }
}

/** Regroups canonical 16-bit limbs into the 26-bit limbs of src/sns/jacobi.ts. */
export function toJacobiLimbs(limbs: Float64Array, out: Float64Array): void {
  // The accumulator holds fewer than 26 + 16 bits; scale is 2 to the number of bits it holds.
  let accumulator = 0;
  let scale = 1;
  let k = 0;
  for (let i = 0; i < FIELD_LIMBS; i++) {
    accumulator += limbs[i]! * scale;
    scale *= FIELD_RADIX;
    if (scale >= JACOBI_RADIX) {
      const high = Math.floor(accumulator * INVERSE_JACOBI_RADIX);
      out[k++] = accumulator - high * JACOBI_RADIX;
      accumulator = high;
      scale *= INVERSE_JACOBI_RADIX;
    }
  }
  // 16 × 16 bits = 9 limbs of 26 and the 22 bits left: the tenth.
  out[k] = accumulator;
}
