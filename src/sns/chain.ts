import type { Address } from "@solana/kit";

/** Raw account as read from the chain: program owner and data bytes. */
export interface AccountData {
  readonly owner: Address;
  readonly data: Uint8Array;
}

export interface TokenAmountEntry {
  readonly address: Address;
  /** Raw integer amount as a decimal string, as RPC nodes report it. */
  readonly amount: string;
}

/** A `getProgramAccounts` filter; memcmp bytes are raw here and encoded by the RPC layer. */
export type AccountFilter =
  { readonly dataSize: number } | { readonly memcmp: { readonly offset: number; readonly bytes: Uint8Array } };

export interface ProgramAccountsQuery {
  readonly filters: readonly AccountFilter[];
  /** Only these bytes of each account; `{offset: 0, length: 0}` asks for keys alone. */
  readonly dataSlice?: { readonly offset: number; readonly length: number };
  /** Defaults to the reader's own commitment. */
  readonly commitment?: "processed" | "confirmed" | "finalized";
  /** A node that has not reached this slot refuses the query (and another endpoint is asked). */
  readonly minContextSlot?: number;
}

export interface ProgramAccount {
  readonly address: Address;
  readonly account: AccountData;
}

export interface ProgramAccounts {
  /** Slot the node answered at (0 when it did not say). */
  readonly slot: number;
  readonly accounts: readonly ProgramAccount[];
}

/**
 * What protocol logic needs from the chain. Implemented by the RPC layer;
 * any failure it raises is its own typed error and passes through untouched.
 */
export interface ChainReader {
  /** Accounts in key order, null where an account does not exist. */
  getAccounts(keys: readonly Address[]): Promise<(AccountData | null)[]>;
  /**
   * getAccounts, with only the first `heads[i]` bytes of account i's data
   * where that is above 0 (an account shorter than that: all of it).
   * Offered by readers for which fewer bytes matter more than fewer calls (a
   * bulk request's: heads fill calls of their own); absent, queries read
   * whole accounts.
   */
  getAccountHeads?(keys: readonly Address[], heads: readonly number[]): Promise<(AccountData | null)[]>;
  /** Largest holders of a mint, or null when the node says the mint does not exist (-32602). */
  getTokenLargestAccounts(mint: Address): Promise<readonly TokenAmountEntry[] | null>;
  /** Accounts owned by `program` that pass every filter, in the node's order. */
  getProgramAccounts(program: Address, query: ProgramAccountsQuery): Promise<ProgramAccounts>;
  /**
   * Whether legacy `.sol` resolution has reached the cutoff slot on this
   * chain: at once when it is known, a promise when a slot must be read.
   */
  isSolCutoffReached(): boolean | Promise<boolean>;
  /**
   * Work over a list whose length the chain (or whoever answers for it)
   * chose: called with the list's length before any of it is worked
   * through, then with 0 before each slice. The reader may refuse (throw
   * its own typed error: a request's budget), or return a promise to let
   * other work run first. Absent: work goes on. Queries stay pure: when and
   * how to wait is the caller's (see paced.ts).
   */
  pace?(items: number): void | Promise<void>;
}

/** A recent blockhash, and the last block height at which a transaction using it can land. */
export interface LatestBlockhash {
  readonly blockhash: Address;
  readonly lastValidBlockHeight: bigint;
}

/**
 * What building a transaction reads besides accounts. Implemented by the RPC
 * layer, whose batching sends the reads asked for in one turn together.
 */
export interface TransactionContextReader {
  getAccounts(keys: readonly Address[]): Promise<(AccountData | null)[]>;
  getLatestBlockhash(): Promise<LatestBlockhash>;
  /** Lamports an account of `bytes` data bytes must hold to be rent-exempt. */
  getMinimumBalanceForRentExemption(bytes: number): Promise<bigint>;
}
