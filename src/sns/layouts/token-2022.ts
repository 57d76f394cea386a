import type { Address } from "@solana/kit";
import { addressToBytes } from "../bytes.js";
import { MINT_LEN, MULTISIG_LEN, TOKEN_ACCOUNT_LEN } from "../constants.js";
import { encodeMint, type MintInput } from "./mint.js";
import { type TokenAccountInput, encodeTokenAccount } from "./token-account.js";

/**
 * Token-2022 mints and token accounts as spl-token 0.4's `unpackMint` and
 * `unpackAccount` accept them. The base layout is the classic one; an
 * extended account is longer, with its account type at byte 165 (1 mint,
 * 2 token account) and extensions (type-length-value) after it. An
 * extended mint is padded to 165 bytes first, so a mint of 83..165 bytes is
 * refused, and 355 bytes is a multisig, never either.
 */
const ACCOUNT_TYPE_OFFSET = TOKEN_ACCOUNT_LEN;
export const AccountType = { Mint: 1, Account: 2 } as const;

/** Token-2022 extension type numbers used by the fixtures and tests. */
export const ExtensionType = { MintCloseAuthority: 3, ImmutableOwner: 7 } as const;

export interface Token2022Mint {
  readonly supply: bigint;
  readonly decimals: number;
  /** spl-token reads the flag as a boolean: any non-zero byte. */
  readonly isInitialized: boolean;
}

export interface Token2022Account {
  readonly mint: Uint8Array;
  readonly owner: Uint8Array;
  readonly amount: bigint;
  /** State other than Uninitialized (0): Initialized and Frozen alike. */
  readonly isInitialized: boolean;
  readonly isFrozen: boolean;
}

const view = (data: Uint8Array) => new DataView(data.buffer, data.byteOffset, data.byteLength);

function extendedAs(data: Uint8Array, type: number): boolean {
  return data.length > TOKEN_ACCOUNT_LEN && data.length !== MULTISIG_LEN && data[ACCOUNT_TYPE_OFFSET] === type;
}

/** The mint's fields, or null where spl-token's `unpackMint` throws. */
export function unpackToken2022Mint(data: Uint8Array): Token2022Mint | null {
  if (data.length < MINT_LEN) return null;
  if (data.length > MINT_LEN && !extendedAs(data, AccountType.Mint)) return null;
  return { supply: view(data).getBigUint64(36, true), decimals: data[44]!, isInitialized: data[45] !== 0 };
}

/** The token account's fields, or null where spl-token's `unpackAccount` throws. */
export function unpackToken2022Account(data: Uint8Array): Token2022Account | null {
  if (data.length < TOKEN_ACCOUNT_LEN) return null;
  if (data.length > TOKEN_ACCOUNT_LEN && !extendedAs(data, AccountType.Account)) return null;
  const state = data[108]!;
  return {
    mint: data.subarray(0, 32),
    owner: data.subarray(32, 64),
    amount: view(data).getBigUint64(64, true),
    isInitialized: state !== 0,
    isFrozen: state === 2,
  };
}

/** One type-length-value extension entry. */
export interface ExtensionInput {
  readonly type: number;
  readonly value: Uint8Array;
}

function withExtensions(base: Uint8Array, type: number, extensions: readonly ExtensionInput[]): Uint8Array {
  const tlvLength = extensions.reduce((n, e) => n + 4 + e.value.length, 0);
  const data = new Uint8Array(ACCOUNT_TYPE_OFFSET + 1 + tlvLength);
  data.set(base, 0);
  data[ACCOUNT_TYPE_OFFSET] = type;
  const out = view(data);
  let offset = ACCOUNT_TYPE_OFFSET + 1;
  for (const { type: extension, value } of extensions) {
    out.setUint16(offset, extension, true);
    out.setUint16(offset + 2, value.length, true);
    data.set(value, offset + 4);
    offset += 4 + value.length;
  }
  return data;
}

/** A Token-2022 mint: the classic 82 bytes, or the extended form when extensions are given (even none: `[]`). */
export function encodeToken2022Mint(
  input: MintInput & { readonly initialized?: boolean },
  extensions?: readonly ExtensionInput[],
): Uint8Array {
  const base = encodeMint(input);
  if (input.initialized === false) base[45] = 0;
  return extensions ? withExtensions(base, AccountType.Mint, extensions) : base;
}

/** A Token-2022 account: the classic 165 bytes, or the extended form when extensions are given. */
export function encodeToken2022Account(input: TokenAccountInput, extensions?: readonly ExtensionInput[]): Uint8Array {
  const base = encodeTokenAccount(input);
  return extensions ? withExtensions(base, AccountType.Account, extensions) : base;
}

/** MintCloseAuthority: a 32-byte authority key. */
export const mintCloseAuthority = (authority: Address): ExtensionInput => ({
  type: ExtensionType.MintCloseAuthority,
  value: addressToBytes(authority),
});

/** ImmutableOwner: no value. */
export const IMMUTABLE_OWNER: ExtensionInput = { type: ExtensionType.ImmutableOwner, value: new Uint8Array(0) };
