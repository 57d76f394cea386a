import { ed25519 } from "@noble/curves/ed25519.js";

/**
 * Same rule as web3.js `PublicKey.isOnCurve`: the 32 bytes decode as an
 * ed25519 point under strict (RFC 8032, non-ZIP-215) decoding.
 */
export function isOnCurve(publicKey: Uint8Array): boolean {
  try {
    ed25519.Point.fromBytes(publicKey);
    return true;
  } catch {
    return false;
  }
}

/**
 * ed25519 verification with ZIP-215 rules, which is what the official SDK's
 * @noble/curves v1 applies by default (v2 made strict mode the default).
 */
export function verifyEd25519(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  if (signature.length !== 64 || publicKey.length !== 32) return false;
  try {
    return ed25519.verify(signature, message, publicKey, { zip215: true });
  } catch {
    return false;
  }
}
