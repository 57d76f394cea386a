import { ed25519 } from "@noble/curves/ed25519.js";
import { ByteMemo, MAP_SLOT_BYTES, type MemoStats, stringBytes } from "./memo.js";

// Curve arithmetic in BigInt costs ~0.1 ms per point decode and ~2 ms per
// signature check, while the answers are pure functions of the bytes: hot
// names must not pay for them again. Keys are the raw bytes as latin1 text
// (a 32-byte key: a 48-byte string, a third of its base58 text's entry).
const sizeOfEntry = (key: string) => stringBytes(key) + MAP_SLOT_BYTES;

/** Registry owners checked for being on the curve: ~96 bytes each, so 110,000 owners fit. */
export const ON_CURVE_MEMO_BYTES = 10 * 1024 * 1024;
/**
 * Signature checks of V1 SOL records (key ‖ signature ‖ packed message: ~232
 * bytes each), 54,000 fit: in a traffic-like mix, two names in five reach one.
 */
export const SIGNATURE_MEMO_BYTES = 12 * 1024 * 1024;
const onCurveMemo = new ByteMemo<boolean>(ON_CURVE_MEMO_BYTES, sizeOfEntry);
const signatureMemo = new ByteMemo<boolean>(SIGNATURE_MEMO_BYTES, sizeOfEntry);

function latin1(bytes: Uint8Array): string {
  let text = "";
  // Slices keep the argument count far below engines' limits, whatever a record's size.
  for (let i = 0; i < bytes.length; i += 8192) {
    text += String.fromCharCode.apply(null, bytes.subarray(i, i + 8192) as unknown as number[]);
  }
  return text;
}

/**
 * Same rule as web3.js `PublicKey.isOnCurve`: the 32 bytes decode as an
 * ed25519 point under strict (RFC 8032, non-ZIP-215) decoding.
 */
export function isOnCurve(publicKey: Uint8Array): boolean {
  const key = latin1(publicKey);
  let onCurve = onCurveMemo.get(key);
  if (onCurve === undefined) {
    onCurve = decodesAsPoint(publicKey);
    onCurveMemo.set(key, onCurve);
  }
  return onCurve;
}

/**
 * `isOnCurve` without the memo, for bytes that will not be asked about again:
 * PDA bump candidates are hashed once per derivation, and derivations have a
 * memo of their own, so remembering candidates only evicts useful entries.
 */
export function decodesAsPoint(bytes: Uint8Array): boolean {
  try {
    ed25519.Point.fromBytes(bytes);
    return true;
  } catch {
    return false;
  }
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
  const key = latin1(publicKey) + latin1(signature) + messageKey(message);
  let valid = signatureMemo.get(key);
  if (valid === undefined) {
    valid = verifyCanonical(signature, message, publicKey);
    signatureMemo.set(key, valid);
  }
  return valid;
}

/**
 * The message part of a signature memo key. A V1 SOL record signs the
 * lowercase hex of 64 bytes: packed back to those bytes it takes half the
 * characters, which makes the entry a fifth smaller. The first character
 * tells a packed message from a raw one, so two keys never collide.
 */
function messageKey(message: Uint8Array): string {
  if (message.length % 2 === 0) {
    const packed = new Uint8Array(message.length / 2);
    for (let i = 0; i < packed.length; i++) {
      const high = hexValue(message[2 * i]!);
      const low = hexValue(message[2 * i + 1]!);
      if (high < 0 || low < 0) return `\u0000${latin1(message)}`;
      packed[i] = (high << 4) | low;
    }
    return `\u0001${latin1(packed)}`;
  }
  return `\u0000${latin1(message)}`;
}

/** Value of a lowercase hex digit's ASCII code, or -1. */
const hexValue = (code: number): number => (code >= 48 && code <= 57 ? code - 48 : code >= 97 && code <= 102 ? code - 87 : -1);

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

/** Entries and estimated bytes of the curve memos, for benchmarks and tests. */
export function curveMemoStats(): Record<"onCurve" | "signatures", MemoStats> {
  return { onCurve: onCurveMemo.stats(), signatures: signatureMemo.stats() };
}
