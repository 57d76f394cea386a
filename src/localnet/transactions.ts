import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToAddress, utf8 } from "../sns/bytes.js";

/** A change applied to the ledger as one transaction (it only records what an index needs). */
export interface RecordedTransaction {
  readonly signature: string;
  readonly slot: number;
  readonly blockTime: number;
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
}

/** Unix time of a slot: slots are 400 ms apart from a fixed genesis. */
const blockTimeOf = (slot: number) => 1_600_000_000 + Math.floor(slot * 0.4);

/**
 * Every transaction the ledger applied, by signature and newest first per
 * address, as `getSignaturesForAddress` and `getTransaction` need them.
 */
export class TransactionLog {
  readonly #bySignature = new Map<string, RecordedTransaction>();
  readonly #byAddress = new Map<string, RecordedTransaction[]>();
  #count = 0;

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
      blockTime: blockTimeOf(slot),
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
