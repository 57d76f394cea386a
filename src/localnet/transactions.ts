import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToAddress, utf8 } from "../sns/bytes.js";

/** The message versions the cluster executes (as `@solana/kit`'s `TransactionVersion`). */
export type TransactionVersion = "legacy" | 0 | 1;

export const TRANSACTION_VERSIONS: readonly TransactionVersion[] = ["legacy", 0, 1];

/**
 * The version a transaction gets when none is chosen: 1, the newest the
 * cluster accepts. New transactions on mainnet may be version 1 since the
 * cluster enabled it, and a client asking for less gets an error for each
 * of them instead of the transaction; recording them by default makes every
 * client of the localnet (the gateway's index, the demo, the tests) read
 * them, as it has to against mainnet.
 */
export const DEFAULT_TRANSACTION_VERSION: TransactionVersion = 1;

/** A change applied to the ledger as one transaction (it only records what an index needs). */
export interface RecordedTransaction {
  readonly signature: string;
  readonly slot: number;
  readonly blockTime: number;
  readonly version: TransactionVersion;
  /** Fee payer first (the only signer), then written accounts, then read-only ones, then programs. */
  readonly accountKeys: readonly string[];
  readonly header: {
    readonly numRequiredSignatures: number;
    readonly numReadonlySignedAccounts: number;
    readonly numReadonlyUnsignedAccounts: number;
  };
  /** One instruction per program, each naming every non-program account. */
  readonly instructions: readonly { readonly programIdIndex: number; readonly accounts: readonly number[] }[];
  readonly failed: boolean;
}

export interface TransactionInput {
  readonly feePayer: string;
  readonly programs: readonly string[];
  readonly writable: readonly string[];
  readonly readonly?: readonly string[];
  readonly failed?: boolean;
  /** Defaults to the log's version (DEFAULT_TRANSACTION_VERSION unless the ledger chose another). */
  readonly version?: TransactionVersion;
}

/** Unix time of the ledger's genesis: block times count from it at the ledger's slot duration. */
const GENESIS_UNIX_TIME = 1_600_000_000;

/**
 * Every transaction the ledger applied, by signature and newest first per
 * address, as `getSignaturesForAddress` and `getTransaction` need them.
 */
export class TransactionLog {
  readonly #bySignature = new Map<string, RecordedTransaction>();
  readonly #byAddress = new Map<string, RecordedTransaction[]>();
  #count = 0;
  /** Version of transactions recorded without one. */
  version: TransactionVersion = DEFAULT_TRANSACTION_VERSION;

  /** `slotMs`: how long a slot lasts, for block times (one setting of the ledger). */
  constructor(private readonly slotMs: number) {}

  record(input: TransactionInput, slot: number): RecordedTransaction {
    const writable = unique(input.writable.filter((key) => key !== input.feePayer));
    const readonly = unique((input.readonly ?? []).filter((key) => key !== input.feePayer && !writable.includes(key)));
    const programs = unique(input.programs);
    const accountKeys = [input.feePayer, ...writable, ...readonly, ...programs];
    const accounts = accountKeys.map((_, i) => i).slice(0, accountKeys.length - programs.length);
    const transaction: RecordedTransaction = {
      signature: bytesToAddress(
        new Uint8Array([...sha256(utf8.encode(`sns-localnet:tx:${this.#count++}`)), ...sha256(utf8.encode(`${slot}`))]),
      ),
      slot,
      blockTime: GENESIS_UNIX_TIME + Math.floor((slot * this.slotMs) / 1000),
      version: input.version ?? this.version,
      accountKeys,
      header: {
        numRequiredSignatures: 1,
        numReadonlySignedAccounts: 0,
        numReadonlyUnsignedAccounts: readonly.length + programs.length,
      },
      instructions: programs.map((_, i) => ({ programIdIndex: accountKeys.length - programs.length + i, accounts })),
      failed: input.failed ?? false,
    };
    this.#bySignature.set(transaction.signature, transaction);
    for (const key of new Set(accountKeys)) {
      let list = this.#byAddress.get(key);
      if (!list) this.#byAddress.set(key, (list = []));
      list.push(transaction);
    }
    return transaction;
  }

  get(signature: string): RecordedTransaction | undefined {
    return this.#bySignature.get(signature);
  }

  /** Transactions naming `address`, newest first. */
  *forAddress(address: string): Generator<RecordedTransaction> {
    const list = this.#byAddress.get(address) ?? [];
    for (let i = list.length - 1; i >= 0; i--) yield list[i]!;
  }

  clear(): void {
    this.#bySignature.clear();
    this.#byAddress.clear();
  }
}

const unique = (keys: readonly string[]) => [...new Set(keys)];
