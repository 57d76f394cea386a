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

/**
 * What protocol logic needs from the chain. Implemented by the RPC layer;
 * any failure it raises is its own typed error and passes through untouched.
 */
export interface ChainReader {
  /** Accounts in key order, null where an account does not exist. */
  getAccounts(keys: readonly Address[]): Promise<(AccountData | null)[]>;
  /** Largest holders of a mint, or null when the node says the mint does not exist (-32602). */
  getTokenLargestAccounts(mint: Address): Promise<readonly TokenAmountEntry[] | null>;
  /** Whether legacy `.sol` resolution has reached the cutoff slot on this chain. */
  isSolCutoffReached(): Promise<boolean>;
}
