import type { Address } from "@solana/kit";
import { tryDecodePublicKey } from "../../../sns/bytes.js";
import { SnsError } from "../../../sns/errors.js";

/** A key as web3.js's `new PublicKey` took it on the retired hosts: untrimmed, 32 bytes of base58. */
export function legacyKey(text: string): Address {
  if (!tryDecodePublicKey(text)) throw new SnsError("INVALID_INPUT", "not a public key");
  return text as Address;
}
