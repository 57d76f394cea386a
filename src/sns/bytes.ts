import { base58 } from "@scure/base";
import type { Address } from "@solana/kit";

// @scure/base rather than kit's codecs at run time: several times faster on
// 32-byte keys, and it spares loading all of kit's modules.

/** Base58 text of any length to bytes; throws on characters outside the alphabet. */
export const decodeBase58 = (text: string): Uint8Array => base58.decode(text);

export const encodeBase58 = (bytes: Uint8Array): string => base58.encode(bytes);

export function addressToBytes(address: Address | string): Uint8Array {
  return decodeBase58(address);
}

export function bytesToAddress(bytes: Uint8Array): Address {
  return encodeBase58(bytes) as Address;
}

/** Decodes base58 text to exactly 32 bytes, or returns null. Never throws. */
export function tryDecodePublicKey(text: string): Uint8Array | null {
  if (text.length < 32 || text.length > 44) return null;
  try {
    const bytes = addressToBytes(text);
    return bytes.length === 32 ? bytes : null;
  } catch {
    return null;
  }
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

export function toHex(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += HEX[b];
  return out;
}

export const utf8 = new TextEncoder();
