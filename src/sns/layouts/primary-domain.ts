import type { Address } from "@solana/kit";
import { bytesToAddress } from "../bytes.js";
import { malformed } from "./malformed.js";
import { writeKey } from "./name-registry.js";

/** Name-offers account tag of a primary ("favourite") domain; readers do not check it. */
export const FAVOURITE_DOMAIN_TAG = 4;
export const PRIMARY_DOMAIN_LEN = 33;

/** Primary-domain account: tag, then the chosen (sub)domain's name account. */
export interface PrimaryDomain {
  readonly tag: number;
  readonly nameAccount: Address;
}

export function decodePrimaryDomain(data: Uint8Array): PrimaryDomain {
  if (data.length < PRIMARY_DOMAIN_LEN) malformed("primary domain", data);
  return { tag: data[0]!, nameAccount: bytesToAddress(data.subarray(1, 33)) };
}

export function encodePrimaryDomain(nameAccount: Address, tag: number = FAVOURITE_DOMAIN_TAG): Uint8Array {
  const data = new Uint8Array(PRIMARY_DOMAIN_LEN);
  data[0] = tag;
  writeKey(data, 1, nameAccount);
  return data;
}
