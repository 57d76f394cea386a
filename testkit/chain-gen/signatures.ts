import { type KeyObject, createPrivateKey, sign } from "node:crypto";
import { ed25519 } from "@noble/curves/ed25519.js";
import { sha512 } from "@noble/hashes/sha2.js";
import type { Identity } from "../../src/localnet/index.js";

// ed25519 corner cases for V1 SOL record signatures and registry owners.
// They matter because the official SDK verifies with @noble/curves 1.x under
// ZIP-215 rules and decides "on curve" with web3.js' strict decoding, so
// encodings that only one of those accepts are where implementations drift.

/** Order of the ed25519 base point. */
export const CURVE_ORDER = 2n ** 252n + 27742317777372353535851937790883648493n;
const FIELD_PRIME = 2n ** 255n - 19n;

export function leBytes(value: bigint, length = 32): Uint8Array {
  const out = new Uint8Array(length);
  let rest = value;
  for (let i = 0; i < length; i++) {
    out[i] = Number(rest & 0xffn);
    rest >>= 8n;
  }
  return out;
}

export function leToBigint(bytes: Uint8Array): bigint {
  let value = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) value = (value << 8n) | BigInt(bytes[i]!);
  return value;
}

const withSignBit = (bytes: Uint8Array): Uint8Array => {
  const out = bytes.slice();
  out[31] = out[31]! | 0x80;
  return out;
};

/**
 * Encodings of the eight-torsion points y ∈ {0, 1, -1}: canonical forms, the
 * x-sign-bit variants, and the unreduced y + p forms. All decode under ZIP-215;
 * web3.js' strict `isOnCurve` accepts only some of them.
 */
export const SMALL_ORDER_ENCODINGS: readonly Uint8Array[] = [0n, 1n, FIELD_PRIME - 1n, FIELD_PRIME, FIELD_PRIME + 1n]
  .map((y) => leBytes(y))
  .flatMap((bytes) => [bytes, withSignBit(bytes)]);

/** Non-canonical (y ≥ p) key encodings, which strict decoding rejects as off-curve. */
export const NON_CANONICAL_ENCODINGS: readonly Uint8Array[] = Array.from({ length: 19 }, (_, k) =>
  leBytes(FIELD_PRIME + BigInt(k)),
).flatMap((bytes) => [bytes, withSignBit(bytes)]);

/**
 * Non-canonical encodings of small-order points, usable as a signature's R:
 * identity with the sign bit, y = p + 1, y = p (both signs), y = -1 with the sign bit.
 */
export const NON_CANONICAL_SMALL_ORDER_R: readonly Uint8Array[] = [
  withSignBit(leBytes(1n)),
  leBytes(FIELD_PRIME + 1n),
  withSignBit(leBytes(FIELD_PRIME + 1n)),
  leBytes(FIELD_PRIME),
  withSignBit(leBytes(FIELD_PRIME)),
  withSignBit(leBytes(FIELD_PRIME - 1n)),
];

/** The point's canonical encoding (what @noble/curves 1.x hashes during verification). */
export function canonicalEncoding(point: Uint8Array): Uint8Array {
  return ed25519.Point.fromBytes(point, true).toBytes();
}

const scalarOf = (signer: Identity): bigint => ed25519.utils.getExtendedPublicKey(signer.secretKey).scalar;

/**
 * A signature that verifies against any small-order public key for any
 * message: R = r·B and s = r, so the cofactored equation leaves only [8]kA = 0.
 */
export function smallOrderForgery(r: bigint): Uint8Array {
  const scalar = (r % (CURVE_ORDER - 1n)) + 1n;
  const signature = new Uint8Array(64);
  signature.set(ed25519.Point.BASE.multiply(scalar).toBytes());
  signature.set(leBytes(scalar), 32);
  return signature;
}

/**
 * A real signature by `signer` whose R is a non-canonical small-order
 * encoding. The challenge k is hashed over either the canonical re-encoding
 * of R (what @noble/curves 1.x verifies against) or R's raw bytes (what
 * @noble/curves 2.x verifies against); only the matching verifier accepts it.
 */
export function nonCanonicalRSignature(
  signer: Identity,
  message: Uint8Array,
  rEncoding: Uint8Array,
  hashOver: "canonical" | "raw",
): Uint8Array {
  const hashedR = hashOver === "canonical" ? canonicalEncoding(rEncoding) : rEncoding;
  const preimage = new Uint8Array(64 + message.length);
  preimage.set(hashedR);
  preimage.set(signer.publicKey, 32);
  preimage.set(message, 64);
  const k = leToBigint(sha512(preimage)) % CURVE_ORDER;
  const signature = new Uint8Array(64);
  signature.set(rEncoding);
  signature.set(leBytes((k * scalarOf(signer)) % CURVE_ORDER), 32);
  return signature;
}

const PKCS8_ED25519_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");
const privateKeys = new WeakMap<Identity, KeyObject>();

/**
 * RFC 8032 signature by `signer`, byte-identical to `signer.sign` (ed25519 is
 * deterministic) but native, which keeps generating thousands of states fast.
 */
export function signFast(signer: Identity, message: Uint8Array): Uint8Array {
  let key = privateKeys.get(signer);
  if (!key) {
    const der = Buffer.concat([PKCS8_ED25519_PREFIX, signer.secretKey]);
    key = createPrivateKey({ key: der, format: "der", type: "pkcs8" });
    privateKeys.set(signer, key);
  }
  return new Uint8Array(sign(null, message, key));
}

/** The same signature with s + L: unreduced, so every RFC 8032 / ZIP-215 verifier rejects it. */
export function malleated(signature: Uint8Array): Uint8Array {
  const out = signature.slice();
  out.set(leBytes(leToBigint(signature.subarray(32)) + CURVE_ORDER), 32);
  return out;
}
