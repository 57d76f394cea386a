import { ed25519 } from "@noble/curves/ed25519.js";
import { sha256 as streamingSha256 } from "@noble/hashes/sha2.js";
import { FIELD_LIMBS, P_LIMBS, atLeastP, fieldLimbs, isOne, multiply, reduce, toJacobiLimbs } from "./field25519.js";
import { LIMBS, jacobi } from "./jacobi.js";
import { createMemo } from "./memos.js";
import type { MemoStats } from "./slab-memo.js";
import { sha256 } from "./sha256.js";

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

/** 1/d = −121666/121665 mod p for the curve constant d = −121665/121666. */
const INVERSE_D = 29203323570479832313932222820853031755424015489030106335172286495629888845891n;
const INVERSE_D_LIMBS = fieldLimbs(INVERSE_D);
const JACOBI_P = new Float64Array(LIMBS);
toJacobiLimbs(P_LIMBS, JACOBI_P);

// Scratch limbs of one check at a time (decodesAsPoint runs to its end without yielding).
const y = new Float64Array(FIELD_LIMBS);
const ySquared = new Float64Array(FIELD_LIMBS);
const u = new Float64Array(FIELD_LIMBS);
const v = new Float64Array(FIELD_LIMBS);
const product = new Float64Array(FIELD_LIMBS);
const jacobiOperand = new Float64Array(LIMBS);

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
  const digest = streamingSha256.create().update(publicKey).update(signature).update(message).digest();
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
