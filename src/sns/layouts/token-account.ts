import type { Address } from "@solana/kit";
import { TOKEN_ACCOUNT_LEN } from "../constants.js";
import { malformed } from "./malformed.js";
import { writeKey } from "./name-registry.js";

/** Classic SPL token account: the fields SNS reads. */
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

export function decodeTokenAccount(data: Uint8Array): TokenAccount {
  if (data.length < TOKEN_ACCOUNT_MIN_READABLE) malformed("token", data);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  return {
    mint: data.subarray(0, 32),
    owner: data.subarray(32, 64),
    amount: view.getBigUint64(64, true),
  };
}

export interface TokenAccountInput {
  readonly mint: Address;
  readonly owner: Address;
  readonly amount: bigint;
  /** 1 initialized (default), 2 frozen. */
  readonly state?: number;
}

/** 165 bytes, no delegate or close authority. */
export function encodeTokenAccount(input: TokenAccountInput): Uint8Array {
  const data = new Uint8Array(TOKEN_ACCOUNT_LEN);
  writeKey(data, 0, input.mint);
  writeKey(data, 32, input.owner);
  new DataView(data.buffer).setBigUint64(64, input.amount, true);
  data[108] = input.state ?? 1;
  return data;
}
