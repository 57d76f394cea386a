import type { Address } from "@solana/kit";
import { tryDecodePublicKey } from "../sns/bytes.js";
import type { AccountData, LatestBlockhash, ProgramAccount, ProgramAccounts, TokenAmountEntry } from "../sns/chain.js";
import { decodeCanonicalBase64 } from "./base64.js";
import { RpcFailure } from "./errors.js";

// Hand-written shape checks: these run for every account on the hot path,
// and a wrong shape must become a typed error, never a TypeError later.

const invalid = (what: string) => new RpcFailure("invalid-response", `unexpected RPC result: ${what}`);

/**
 * Highest slot believed: 2^36 slots are over 400 years even at 200 ms a slot. A slot
 * from an RPC answer above it (2^53−1 in a context, 1e300 on a signature)
 * is a fault of that answer, never state: kept, it would put every later
 * answer "behind" and freeze whatever waits for that slot.
 */
export const MAX_PLAUSIBLE_SLOT = 2 ** 36;

export const isPlausibleSlot = (value: unknown): value is number =>
  typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= MAX_PLAUSIBLE_SLOT;

function contextValue(result: unknown): unknown {
  if (typeof result !== "object" || result === null || !("value" in result)) throw invalid("no context value");
  return (result as { value: unknown }).value;
}

function parseAccount(raw: unknown): AccountData | null {
  if (raw === null) return null;
  if (typeof raw !== "object") throw invalid("account is not an object");
  const { data, owner } = raw as { data?: unknown; owner?: unknown };
  if (typeof owner !== "string" || !Array.isArray(data) || typeof data[0] !== "string" || data[1] !== "base64") {
    throw invalid("account fields");
  }
  const bytes = decodeCanonicalBase64(data[0]);
  if (bytes === undefined) throw invalid("account data is not base64");
  return { owner: owner as Address, data: bytes };
}

export function parseMultipleAccounts(result: unknown, expected: number): (AccountData | null)[] {
  const value = contextValue(result);
  if (!Array.isArray(value) || value.length !== expected) throw invalid("account list length");
  return value.map(parseAccount);
}

/**
 * A `getProgramAccounts` answer asked `withContext`; a node that ignores the
 * flag answers the bare list, which is read as slot 0.
 */
export function parseProgramAccounts(result: unknown): ProgramAccounts {
  const withContext = typeof result === "object" && result !== null && !Array.isArray(result);
  const value = withContext ? contextValue(result) : result;
  if (!Array.isArray(value)) throw invalid("program account list");
  const slot = withContext ? contextSlot(result) : 0;
  const accounts = value.map((entry: unknown): ProgramAccount => {
    const { pubkey, account } = (entry ?? {}) as { pubkey?: unknown; account?: unknown };
    if (typeof pubkey !== "string" || account === null) throw invalid("program account entry");
    return { address: pubkey as Address, account: parseAccount(account)! };
  });
  return { slot, accounts };
}

/**
 * The context slot of an answer whose value is read anyway (accounts, holders):
 * 0 when it has none or an implausible one, which only leaves the slot unsaid.
 */
export function answeredSlot(result: unknown): number {
  const slot = (result as { context?: { slot?: unknown } } | null)?.context?.slot;
  return isPlausibleSlot(slot) ? slot : 0;
}

/** The answer's context slot; 0 when it has none; a fault when it is not a plausible slot. */
function contextSlot(result: unknown): number {
  const slot = (result as { context?: { slot?: unknown } }).context?.slot;
  if (slot === undefined) return 0;
  if (!isPlausibleSlot(slot)) throw invalid("context slot");
  return slot;
}

export function parseTokenLargestAccounts(result: unknown): TokenAmountEntry[] {
  const value = contextValue(result);
  if (!Array.isArray(value)) throw invalid("token account list");
  return value.map((entry: unknown) => {
    const { address, amount } = (entry ?? {}) as { address?: unknown; amount?: unknown };
    if (typeof address !== "string" || typeof amount !== "string") throw invalid("token account entry");
    return { address: address as Address, amount };
  });
}

export function parseSlot(result: unknown): number {
  if (!isPlausibleSlot(result)) throw invalid("slot");
  return result;
}

/** A lamport amount: an unsigned 64-bit integer (JSON numbers past 2^53 lose precision, and are refused). */
export function parseLamports(result: unknown): bigint {
  if (typeof result !== "number" || !Number.isSafeInteger(result) || result < 0) throw invalid("lamports");
  return BigInt(result);
}

export function parseLatestBlockhash(result: unknown): LatestBlockhash {
  const { blockhash, lastValidBlockHeight } = (contextValue(result) ?? {}) as {
    blockhash?: unknown;
    lastValidBlockHeight?: unknown;
  };
  if (typeof blockhash !== "string" || !tryDecodePublicKey(blockhash)) throw invalid("blockhash");
  if (
    typeof lastValidBlockHeight !== "number" ||
    !Number.isSafeInteger(lastValidBlockHeight) ||
    lastValidBlockHeight < 0
  ) {
    throw invalid("last valid block height");
  }
  return { blockhash: blockhash as Address, lastValidBlockHeight: BigInt(lastValidBlockHeight) };
}

export interface SignatureEntry {
  readonly signature: string;
  readonly slot: number;
  /** Whether the transaction failed (a failed transaction changed no account). */
  readonly failed: boolean;
}

export function parseSignatures(result: unknown): SignatureEntry[] {
  if (!Array.isArray(result)) throw invalid("signature list");
  return result.map((entry: unknown) => {
    const { signature, slot, err } = (entry ?? {}) as { signature?: unknown; slot?: unknown; err?: unknown };
    if (typeof signature !== "string" || !isPlausibleSlot(slot)) throw invalid("signature entry");
    return { signature, slot, failed: err !== null && err !== undefined };
  });
}

export interface TransactionAccounts {
  readonly slot: number;
  /** Accounts the transaction may have written (static keys by the header's rules, plus loaded writable ones). */
  readonly writable: readonly Address[];
  /** Programs it invoked, top-level and inner. */
  readonly programs: ReadonlySet<Address>;
}

/**
 * Newest transaction version parseTransactionAccounts reads, and so the
 * `maxSupportedTransactionVersion` asked for. Legacy, 0 and 1 messages share
 * `accountKeys`, `header` and `instructions`; a version 0 one may load more
 * accounts from lookup tables (`meta.loadedAddresses`); a version 1 one has
 * no lookup tables and carries its compute budget in `transactionConfig`,
 * which changes no account and is not read.
 */
export const MAX_TRANSACTION_VERSION = 1;

/** The answer's `version`: absent when asked without a maximum, else "legacy" or a number up to the maximum. */
function transactionVersion(version: unknown): "legacy" | number {
  if (version === undefined || version === "legacy") return "legacy";
  if (typeof version === "number" && Number.isInteger(version) && version >= 0 && version <= MAX_TRANSACTION_VERSION) {
    return version;
  }
  throw invalid("transaction version");
}

/** The accounts a `getTransaction` (encoding `json`) answer says were writable; null when unknown. */
export function parseTransactionAccounts(result: unknown): TransactionAccounts | null {
  if (result === null) return null;
  const tx = result as {
    slot?: unknown;
    version?: unknown;
    meta?: { loadedAddresses?: { writable?: unknown; readonly?: unknown }; innerInstructions?: unknown };
    transaction?: { message?: { accountKeys?: unknown; header?: Record<string, unknown>; instructions?: unknown } };
  };
  const message = tx.transaction?.message;
  const keys = message?.accountKeys;
  const header = message?.header;
  if (!isPlausibleSlot(tx.slot) || !Array.isArray(keys) || !header || !Array.isArray(message?.instructions)) {
    throw invalid("transaction");
  }
  const version = transactionVersion(tx.version);
  const signed = Number(header.numRequiredSignatures);
  const readonlySigned = Number(header.numReadonlySignedAccounts);
  const readonlyUnsigned = Number(header.numReadonlyUnsignedAccounts);
  const loadedWritable = Array.isArray(tx.meta?.loadedAddresses?.writable) ? tx.meta.loadedAddresses.writable : [];
  const loadedReadonly = Array.isArray(tx.meta?.loadedAddresses?.readonly) ? tx.meta.loadedAddresses.readonly : [];
  // Accounts loaded from a table by a message that cannot name a table: an answer not to believe.
  if (version !== 0 && loadedWritable.length + loadedReadonly.length > 0)
    throw invalid("addresses loaded without lookup tables");
  const all = [...keys, ...loadedWritable, ...loadedReadonly] as Address[];
  const writable = keys.filter(
    (_, i) => (i < signed && i < signed - readonlySigned) || (i >= signed && i < keys.length - readonlyUnsigned),
  ) as Address[];
  writable.push(...(loadedWritable as Address[]));
  const programs = new Set<Address>();
  const inner = Array.isArray(tx.meta?.innerInstructions) ? tx.meta.innerInstructions : [];
  const instructions = [
    ...message.instructions,
    ...inner.flatMap((group: { instructions?: unknown }) =>
      Array.isArray(group?.instructions) ? group.instructions : [],
    ),
  ];
  for (const instruction of instructions) {
    const program = all[Number((instruction as { programIdIndex?: unknown })?.programIdIndex)];
    if (program) programs.add(program);
  }
  return { slot: tx.slot, writable, programs };
}
