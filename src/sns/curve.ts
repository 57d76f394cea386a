import { ed25519 } from "@noble/curves/ed25519.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { LIMBS, LIMB_BITS, jacobi } from "./jacobi.js";
import { createMemo } from "./memos.js";
import type { MemoStats } from "./slab-memo.js";

// Curve arithmetic in BigInt costs ~0.1 ms per point decode and ~2 ms per
// signature check, while the answers are pure functions of the bytes: hot
// names must not pay for them again. An entry is the sha256 of what was
// checked and a one-byte verdict: 34 bytes, outside the JavaScript heap.
const VERDICT_BYTES = 1;
const readVerdict = (slab: Uint8Array, offset: number): boolean => slab[offset] === 1;
const writeVerdict = (verdict: boolean) => (slab: Uint8Array, offset: number) => {
  slab[offset] = verdict ? 1 : 0;
};

/** Registry owners checked for being on the curve: ~43 bytes each with the index, so 123,000 owners fit. */
export const ON_CURVE_MEMO_BYTES = 5 * 1024 * 1024;
/** Signature checks of V1 SOL records, 92,000 fit: in a traffic-like mix, two names in five reach one. */
export const SIGNATURE_MEMO_BYTES = 4 * 1024 * 1024;
const onCurveMemo = createMemo("onCurve", ON_CURVE_MEMO_BYTES, VERDICT_BYTES);
const signatureMemo = createMemo("signatures", SIGNATURE_MEMO_BYTES, VERDICT_BYTES);

/**
 * Same rule as web3.js `PublicKey.isOnCurve`: the 32 bytes decode as an
 * ed25519 point under strict (RFC 8032, non-ZIP-215) decoding.
 */
export function isOnCurve(publicKey: Uint8Array): boolean {
  // Hashed, not used as it is: an owner key is chosen by whoever sets it, a digest is not.
  const digest = sha256(publicKey);
  let onCurve = onCurveMemo.get(digest, readVerdict);
  if (onCurve === undefined) {
    onCurve = decodesAsPoint(publicKey);
    onCurveMemo.set(digest, writeVerdict(onCurve));
  }
  return onCurve;
}

/**
 * `isOnCurve` without the memo, for bytes that will not be asked about again:
 * PDA bump candidates are hashed once per derivation, and derivations have a
 * memo of their own, so remembering candidates only evicts useful entries.
 *
 * The same verdict as `ed25519.Point.fromBytes(bytes)` succeeding (strict
 * RFC 8032 decoding), without computing the point: a PDA derivation only
 * asks whether the point exists. `fromBytes` finds x with a square root
 * (an exponentiation: ~120 µs in BigInt); existence only needs whether
 * x² = (y² − 1) / (d·y² + 1) is a square, i.e. whether (y² − 1)(d·y² + 1) is.
 * As d·y² + 1 = d·(y² + 1/d) and d is not a square, that is the Jacobi symbol
 * of (y² − 1)(y² + 1/d) modulo p being −1 (src/sns/jacobi.ts): one squaring
 * and one product in limbs, no BigInt. The rules around it are fromBytes's:
 * y below p, and x = 0 with the sign bit set refused. test/sns/curve.test.ts
 * checks the verdicts against `fromBytes` over generated and edge-case bytes.
 */
export function decodesAsPoint(bytes: Uint8Array): boolean {
  if (bytes.length !== 32) return false;
  for (let i = 0; i < FIELD_LIMBS; i++) y[i] = bytes[2 * i]! | (bytes[2 * i + 1]! << 8);
  y[FIELD_LIMBS - 1] = y[FIELD_LIMBS - 1]! & 0x7fff;
  if (atLeastP(y)) return false;
  multiply(ySquared, y, y);
  reduce(ySquared);
  // x = 0 (y² = 1): a point only without the sign bit.
  if (isOne(ySquared)) return (bytes[31]! & 0x80) === 0;
  // (y² − 1 + p) and (y² + 1/d): limbs up to 2^17, which multiply() allows.
  for (let i = 0; i < FIELD_LIMBS; i++) {
    u[i] = ySquared[i]! + P_LIMBS[i]!;
    v[i] = ySquared[i]! + INVERSE_D_LIMBS[i]!;
  }
  u[0] = u[0]! - 1;
  multiply(product, u, v);
  reduce(product);
  // y² ≠ 1 and y² ≠ −1/d (d·y² + 1 is never 0: d is not a square), so the product is not 0 mod p.
  toJacobiLimbs(product, jacobiOperand);
  return jacobi(jacobiOperand, JACOBI_P) === -1;
}

/** The field prime 2^255 − 19, and 1/d = −121666/121665 mod p for the curve constant d = −121665/121666. */
const P = 2n ** 255n - 19n;
const INVERSE_D = 29203323570479832313932222820853031755424015489030106335172286495629888845891n;

/**
 * Field elements as 16 limbs of 16 bits in doubles (least significant first): a product's column
 * sums, 2^256 ≡ 38 folded in, stay below 2^53 for limbs up to 2^17, so every step is exact.
 */
const FIELD_LIMBS = 16;
const FIELD_RADIX = 2 ** 16;
const INVERSE_FIELD_RADIX = 2 ** -16;
const y = new Float64Array(FIELD_LIMBS);
const ySquared = new Float64Array(FIELD_LIMBS);
const u = new Float64Array(FIELD_LIMBS);
const v = new Float64Array(FIELD_LIMBS);
const product = new Float64Array(FIELD_LIMBS);
const jacobiOperand = new Float64Array(LIMBS);
const JACOBI_RADIX = 2 ** LIMB_BITS;
const INVERSE_JACOBI_RADIX = 2 ** -LIMB_BITS;

function fieldLimbs(value: bigint): Float64Array {
  const limbs = new Float64Array(FIELD_LIMBS);
  for (let i = 0; i < FIELD_LIMBS; i++) limbs[i] = Number((value >> BigInt(16 * i)) & 0xffffn);
  return limbs;
}
const P_LIMBS = fieldLimbs(P);
const INVERSE_D_LIMBS = fieldLimbs(INVERSE_D);
const JACOBI_P = new Float64Array(LIMBS);
toJacobiLimbs(P_LIMBS, JACOBI_P);

/** y ≥ p for limbs below 2^16 and y < 2^255: every limb at its maximum but the lowest, that one ≥ 0xffed. */
function atLeastP(limbs: Float64Array): boolean {
  if (limbs[FIELD_LIMBS - 1] !== 0x7fff || limbs[0]! < 0xffed) return false;
  for (let i = 1; i < FIELD_LIMBS - 1; i++) if (limbs[i] !== 0xffff) return false;
  return true;
}

function isOne(limbs: Float64Array): boolean {
  if (limbs[0] !== 1) return false;
  for (let i = 1; i < FIELD_LIMBS; i++) if (limbs[i] !== 0) return false;
  return true;
}

/** out ← a·b mod p, not yet reduced: limbs of a and b in [0, 2^17]; out is neither a nor b. */
function multiply(out: Float64Array, a: Float64Array, b: Float64Array): void {
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
function reduce(limbs: Float64Array): void {
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
function toJacobiLimbs(limbs: Float64Array, out: Float64Array): void {
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

/**
 * ed25519 verification exactly as the official SDK performs it (@noble/curves
 * v1 defaults): ZIP-215 decoding, and the challenge hash taken over the
 * canonical re-encodings of R and A rather than their raw bytes. v2 hashes
 * the raw bytes, which disagrees for non-canonical encodings of small-order
 * points, so both points are re-encoded first.
 */
export function verifyEd25519(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  if (signature.length !== 64 || publicKey.length !== 32) return false;
  // Key and signature have fixed lengths, so the three parts hashed in a row cannot be confused.
  const digest = sha256.create().update(publicKey).update(signature).update(message).digest();
  let valid = signatureMemo.get(digest, readVerdict);
  if (valid === undefined) {
    valid = verifyCanonical(signature, message, publicKey);
    signatureMemo.set(digest, writeVerdict(valid));
  }
  return valid;
}

function verifyCanonical(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  try {
    const a = ed25519.Point.fromBytes(publicKey, true).toBytes();
    const canonical = new Uint8Array(64);
    canonical.set(ed25519.Point.fromBytes(signature.subarray(0, 32), true).toBytes(), 0);
    canonical.set(signature.subarray(32), 32);
    return ed25519.verify(canonical, message, a, { zip215: true });
  } catch {
    return false;
  }
}

/** Entries and allocated bytes of the curve memos, for benchmarks and tests. */
export function curveMemoStats(): Record<"onCurve" | "signatures", MemoStats> {
  return { onCurve: onCurveMemo.stats(), signatures: signatureMemo.stats() };
}
