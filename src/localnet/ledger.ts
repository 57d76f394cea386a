import { tryDecodePublicKey } from "../sns/bytes.js";
import {
  type RecordedTransaction,
  type TransactionInput,
  TransactionLog,
  type TransactionVersion,
} from "./transactions.js";
import { type MemcmpSpec, ProgramIndexes } from "./program-index.js";
import { TokenIndex, type TokenBalance, isTokenProgram, readMint, type MintInfo } from "./token-index.js";

export type { MintInfo, TokenBalance } from "./token-index.js";

/** An account as the bank stores it. `data` must not be mutated once stored. */
export interface LedgerAccount {
  readonly lamports: number;
  /** Base58 id of the owning program. */
  readonly owner: string;
  readonly data: Uint8Array;
  readonly executable: boolean;
}

export interface AccountInput {
  /** Defaults to the rent-exempt minimum for the data length. */
  readonly lamports?: number;
  readonly owner: string;
  readonly data?: Uint8Array;
  readonly executable?: boolean;
}

export type Commitment = "processed" | "confirmed" | "finalized";

/**
 * Lamports per byte of a rent-exempt account on mainnet today. The cluster
 * lowers it in scheduled steps, so nothing outside the localnet may assume
 * it: the gateway asks `getMinimumBalanceForRentExemption`.
 */
export const DEFAULT_LAMPORTS_PER_BYTE = 5_080;

/** Slot duration of mainnet today; the cluster shortens it in scheduled steps, so it is a setting. */
export const DEFAULT_SLOT_MS = 250;

/** Rent exemption: (128 bytes of account overhead + data) × lamports per byte. */
export function rentExemptMinimum(dataLength: number, lamportsPerByte: number = DEFAULT_LAMPORTS_PER_BYTE): number {
  return (128 + dataLength) * lamportsPerByte;
}

/** What a ledger models of the cluster's parameters; each defaults to mainnet's value today. */
export interface LedgerOptions {
  /** Finalized slot to start at. */
  readonly slot?: number;
  /** Rent rate: the rent-exempt minimum of an account is (128 + its size) × this (LOCALNET_LAMPORTS_PER_BYTE). */
  readonly lamportsPerByte?: number;
  /** Duration of a slot in milliseconds, for block times (LOCALNET_SLOT_MS). */
  readonly slotMs?: number;
  /** Version of transactions made without one (DEFAULT_TRANSACTION_VERSION in transactions.ts when absent). */
  readonly transactionVersion?: TransactionVersion;
}

export class LedgerError extends Error {
  override name = "LedgerError";
}

function assertAddress(address: string): void {
  if (!tryDecodePublicKey(address)) throw new LedgerError(`not a base58 public key: ${JSON.stringify(address)}`);
}

/** In-memory account set with the secondary indexes the RPC methods need. */
export class Ledger {
  /** Finalized slot. */
  slot: number;
  /**
   * How far confirmed and processed run ahead of finalized. Zero keeps every
   * commitment at the same slot, which is what deterministic tests want.
   */
  readonly lead = { confirmed: 0, processed: 0 };

  readonly #accounts = new Map<string, LedgerAccount>();
  /** Program → its accounts, so a program scan never looks accounts up one by one. */
  readonly #byProgram = new Map<string, Map<string, LedgerAccount>>();
  /** Short-memcmp indexes of programs that were scanned with one; a program's go when one of its accounts changes. */
  readonly #programIndexes = new ProgramIndexes();
  readonly #tokens = new TokenIndex();
  readonly transactions: TransactionLog;
  readonly lamportsPerByte: number;
  readonly slotMs: number;

  constructor(options: LedgerOptions = {}) {
    this.slot = options.slot ?? 300_000_000;
    this.lamportsPerByte = options.lamportsPerByte ?? DEFAULT_LAMPORTS_PER_BYTE;
    this.slotMs = options.slotMs ?? DEFAULT_SLOT_MS;
    this.transactions = new TransactionLog(this.slotMs);
    if (options.transactionVersion !== undefined) this.transactions.version = options.transactionVersion;
  }

  /** Rent-exempt minimum of an account of `dataLength` bytes at this ledger's rate. */
  rentExemptMinimum(dataLength: number): number {
    return rentExemptMinimum(dataLength, this.lamportsPerByte);
  }

  get size(): number {
    return this.#accounts.size;
  }

  slotAt(commitment: Commitment = "finalized"): number {
    if (commitment === "finalized") return this.slot;
    return this.slot + this.lead[commitment];
  }

  setAccount(address: string, input: AccountInput): LedgerAccount {
    assertAddress(address);
    // A program that owns an account here was checked when its first account was set: a base58 decode is
    // about a third of setting an account, and large ledgers have many accounts of few programs.
    if (!this.#byProgram.has(input.owner)) assertAddress(input.owner);
    const data = input.data ? input.data.slice() : new Uint8Array(0);
    const account: LedgerAccount = {
      lamports: input.lamports ?? this.rentExemptMinimum(data.length),
      owner: input.owner,
      data,
      executable: input.executable ?? false,
    };
    this.deleteAccount(address);
    this.#accounts.set(address, account);
    let owned = this.#byProgram.get(account.owner);
    if (!owned) this.#byProgram.set(account.owner, (owned = new Map()));
    owned.set(address, account);
    this.#programIndexes.forget(account.owner);
    this.#tokens.add(address, account);
    return account;
  }

  getAccount(address: string): LedgerAccount | undefined {
    return this.#accounts.get(address);
  }

  deleteAccount(address: string): boolean {
    const previous = this.#accounts.get(address);
    if (!previous) return false;
    this.#accounts.delete(address);
    this.#byProgram.get(previous.owner)?.delete(address);
    this.#programIndexes.forget(previous.owner);
    this.#tokens.remove(address, previous);
    return true;
  }

  /**
   * Applies `writes` (null deletes) as one transaction in a new slot and
   * records it; a failed transaction is recorded and changes nothing.
   * Fixture loading uses setAccount instead and leaves no transactions.
   */
  transact(
    input: Omit<TransactionInput, "writable"> & { readonly writes: ReadonlyMap<string, AccountInput | null> },
  ): RecordedTransaction {
    this.slot += 1;
    if (!input.failed) {
      for (const [address, account] of input.writes) {
        if (account) this.setAccount(address, account);
        else this.deleteAccount(address);
      }
    }
    return this.transactions.record({ ...input, writable: [...input.writes.keys()] }, this.slotAt("processed"));
  }

  clear(): void {
    this.transactions.clear();
    this.#accounts.clear();
    this.#byProgram.clear();
    this.#programIndexes.clear();
    this.#tokens.clear();
  }

  entries(): IterableIterator<[string, LedgerAccount]> {
    return this.#accounts.entries();
  }

  /** Accounts owned by `program`, in insertion order. */
  programAccounts(program: string): IterableIterator<[string, LedgerAccount]> {
    return (this.#byProgram.get(program) ?? new Map<string, LedgerAccount>()).entries();
  }

  /**
   * Accounts owned by `program` that may match every memcmp of `memcmps`, in insertion order: a superset of
   * those matches (the caller applies its filters to each), found from an index when a memcmp is short.
   */
  *programCandidates(program: string, memcmps: readonly MemcmpSpec[]): IterableIterator<[string, LedgerAccount]> {
    const owned = this.#byProgram.get(program);
    if (!owned) return;
    const addresses = this.#programIndexes.candidates(program, owned, memcmps);
    if (addresses === undefined) {
      yield* owned.entries();
      return;
    }
    for (const address of addresses) yield [address, owned.get(address)!];
  }

  /** Mint fields when `address` is an initialized mint owned by a token program. */
  getMint(address: string): MintInfo | undefined {
    const account = this.#accounts.get(address);
    return account && isTokenProgram(account.owner) ? readMint(account.data, account.owner) : undefined;
  }

  /** Token accounts of `mint` by amount, largest first, at most 20 (as `getTokenLargestAccounts`). */
  tokenLargestAccounts(mint: string): TokenBalance[] {
    return this.#tokens.largest(mint, 20);
  }
}
