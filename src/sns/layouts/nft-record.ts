import type { Address } from "@solana/kit";
import { NFT_RECORD_LEN } from "../constants.js";
import { malformed } from "./malformed.js";
import { writeKey } from "./name-registry.js";

export const NftRecordTag = {
  Uninitialized: 0,
  CentralState: 1,
  ActiveRecord: 2,
  InactiveRecord: 3,
} as const;

/** Tokenizer NFT record (owned by the name tokenizer program); keys are views into the account. */
export interface NftRecord {
  readonly tag: number;
  readonly nonce: number;
  readonly nameAccount: Uint8Array;
  readonly owner: Uint8Array;
  readonly nftMint: Uint8Array;
}

export function decodeNftRecord(data: Uint8Array): NftRecord {
  if (data.length < NFT_RECORD_LEN) malformed("NFT record", data);
  return {
    tag: data[0]!,
    nonce: data[1]!,
    nameAccount: data.subarray(2, 34),
    owner: data.subarray(34, 66),
    nftMint: data.subarray(66, 98),
  };
}

/** The tag alone, as `decodeNftRecord` reads it (same check), without its three key views. */
export function decodeNftRecordTag(data: Uint8Array): number {
  if (data.length < NFT_RECORD_LEN) malformed("NFT record", data);
  return data[0]!;
}

export interface NftRecordInput {
  /** 2 ActiveRecord, 3 InactiveRecord. */
  readonly tag: number;
  readonly nonce: number;
  readonly nameAccount: Address;
  readonly owner: Address;
  readonly nftMint: Address;
}

export function encodeNftRecord(input: NftRecordInput): Uint8Array {
  const data = new Uint8Array(NFT_RECORD_LEN);
  data[0] = input.tag;
  data[1] = input.nonce;
  writeKey(data, 2, input.nameAccount);
  writeKey(data, 34, input.owner);
  writeKey(data, 66, input.nftMint);
  return data;
}
