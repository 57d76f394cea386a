import type { Address } from "@solana/kit";
import { bytesToAddress } from "./bytes.js";
import { NAME_REGISTRY_HEADER_LEN, NFT_RECORD_LEN, TOKEN_ACCOUNT_LEN } from "./constants.js";
import { SnsError } from "./errors.js";

/** Raw account as read from the chain: program owner and data bytes. */
export interface AccountData {
  readonly owner: Address;
  readonly data: Uint8Array;
}

export interface NameRegistryHeader {
  readonly parentName: Uint8Array;
  readonly owner: Uint8Array;
  readonly nameClass: Uint8Array;
}

function malformed(what: string, data: Uint8Array): never {
  throw new SnsError("MALFORMED_ACCOUNT", `${what} account has ${data.length} bytes`);
}

/** The 96-byte header every name-service account starts with (§3.1). */
export function decodeNameRegistryHeader(data: Uint8Array): NameRegistryHeader {
  if (data.length < NAME_REGISTRY_HEADER_LEN) malformed("name registry", data);
  return {
    parentName: data.subarray(0, 32),
    owner: data.subarray(32, 64),
    nameClass: data.subarray(64, 96),
  };
}

export const NftRecordTag = {
  Uninitialized: 0,
  CentralState: 1,
  ActiveRecord: 2,
  InactiveRecord: 3,
} as const;

export interface NftRecord {
  readonly tag: number;
  readonly nonce: number;
  readonly nameAccount: Uint8Array;
  readonly owner: Uint8Array;
  readonly nftMint: Uint8Array;
}

/** Tokenizer NFT record (§3.4). */
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

export interface TokenAccount {
  readonly mint: Uint8Array;
  readonly owner: Uint8Array;
  readonly amount: bigint;
}

/**
 * spl-token's account decoder, which the official SDK uses, reads every
 * numeric field from the first 133 bytes (through the close-authority option)
 * and tolerates a truncated close-authority key; accept exactly what it does.
 */
const TOKEN_ACCOUNT_MIN_READABLE = TOKEN_ACCOUNT_LEN - 32;

/** Classic SPL token account (§3.5); only the fields resolution reads. */
export function decodeTokenAccount(data: Uint8Array): TokenAccount {
  if (data.length < TOKEN_ACCOUNT_MIN_READABLE) malformed("token", data);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  return {
    mint: data.subarray(0, 32),
    owner: data.subarray(32, 64),
    amount: view.getBigUint64(64, true),
  };
}

export const headerOwnerAddress = (header: NameRegistryHeader): Address => bytesToAddress(header.owner);
