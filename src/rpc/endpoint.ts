import type { Address } from "@solana/kit";
import { encodeBase58 } from "../sns/bytes.js";
import type {
  AccountData,
  AccountFilter,
  ChainReader,
  LatestBlockhash,
  ProgramAccounts,
  ProgramAccountsQuery,
  TokenAmountEntry,
  TransactionContextReader,
} from "../sns/chain.js";
import { AccountLoader, type AccountLoaderOptions } from "./account-loader.js";
import type { AnswerSizing } from "./answer-shape.js";
import { INVALID_PARAMS, JsonRpcError } from "./errors.js";
import { JsonRpcClient } from "./json-rpc.js";
import {
  type SignatureEntry,
  type TransactionAccounts,
  parseLamports,
  parseLatestBlockhash,
  parseMultipleAccounts,
  parseProgramAccounts,
  parseSignatures,
  parseTokenLargestAccounts,
  parseTransactionAccounts,
} from "./results.js";
import { type CutoffState, SolCutoffGate } from "./sol-cutoff-gate.js";
import type { RpcTransport } from "./transport/contract.js";
import { NO_TELEMETRY, type Telemetry } from "../telemetry.js";

/** getMultipleAccounts takes at most 100 keys. */
const MAX_KEYS_PER_CALL = 100;

const encodeFilter = (filter: AccountFilter) =>
  "dataSize" in filter
    ? { dataSize: filter.dataSize }
    : { memcmp: { offset: filter.memcmp.offset, bytes: encodeBase58(filter.memcmp.bytes) } };

/** One RPC endpoint with its own batching, coalescing and `.sol` cutoff memory. */
export class RpcEndpoint implements ChainReader, TransactionContextReader {
  private readonly client: JsonRpcClient;
  private readonly accounts: AccountLoader;
  private readonly cutoff: SolCutoffGate;
  private readonly largestByMint = new Map<string, Promise<readonly TokenAmountEntry[] | null>>();

  constructor(
    transport: RpcTransport,
    private readonly options: AccountLoaderOptions,
    sizing?: AnswerSizing,
    cutoff?: CutoffState,
    telemetry: Telemetry = NO_TELEMETRY,
  ) {
    this.client = new JsonRpcClient(transport, sizing, telemetry);
    this.accounts = new AccountLoader(this.client, options, telemetry);
    this.cutoff = new SolCutoffGate(this.client, cutoff);
  }

  get url(): string {
    return this.client.transport.url;
  }

  getAccounts(keys: readonly Address[]): Promise<(AccountData | null)[]> {
    return this.accounts.load(keys);
  }

  getTokenLargestAccounts(mint: Address): Promise<readonly TokenAmountEntry[] | null> {
    let pending = this.largestByMint.get(mint);
    if (!pending) {
      const call = { method: "getTokenLargestAccounts", params: [mint, { commitment: this.options.commitment }] };
      pending = this.accounts.enqueueCall(call).then((outcome) => {
        if (outcome.ok) return parseTokenLargestAccounts(outcome.result);
        // Nodes answer -32602 when the mint account is missing or not a mint.
        if (outcome.error instanceof JsonRpcError && outcome.error.code === INVALID_PARAMS) return null;
        throw outcome.error;
      });
      this.largestByMint.set(mint, pending);
      const forget = () => this.largestByMint.delete(mint);
      pending.then(forget, forget);
    }
    return pending;
  }

  /** Sent with the next batch, like every other call; never coalesced (answers can be large). */
  async getProgramAccounts(program: Address, query: ProgramAccountsQuery): Promise<ProgramAccounts> {
    const config = {
      encoding: "base64",
      commitment: query.commitment ?? this.options.commitment,
      withContext: true,
      filters: query.filters.map(encodeFilter),
      ...(query.dataSlice && { dataSlice: query.dataSlice }),
      ...(query.minContextSlot !== undefined && { minContextSlot: query.minContextSlot }),
    };
    return parseProgramAccounts(await this.call("getProgramAccounts", [program, config]));
  }

  /** Newest first, at most `limit`, newer than `until` when given. */
  async getSignaturesForAddress(
    address: Address,
    options: { readonly until?: string; readonly limit: number; readonly commitment?: string; readonly minContextSlot?: number },
  ): Promise<SignatureEntry[]> {
    const config = {
      limit: options.limit,
      commitment: options.commitment ?? this.options.commitment,
      ...(options.until && { until: options.until }),
      ...(options.minContextSlot !== undefined && { minContextSlot: options.minContextSlot }),
    };
    return parseSignatures(await this.call("getSignaturesForAddress", [address, config]));
  }

  /**
   * Accounts as of `minContextSlot` or later, outside the batching loader: a
   * node behind that slot refuses (and another endpoint is asked), so what
   * the tokenized index re-reads is never older than what it already has.
   */
  async getAccountsAtLeast(keys: readonly Address[], minContextSlot: number, commitment?: string): Promise<(AccountData | null)[]> {
    const accounts: (AccountData | null)[] = [];
    for (let i = 0; i < keys.length; i += MAX_KEYS_PER_CALL) {
      const chunk = keys.slice(i, i + MAX_KEYS_PER_CALL);
      const config = { encoding: "base64", commitment: commitment ?? this.options.commitment, minContextSlot };
      accounts.push(...parseMultipleAccounts(await this.call("getMultipleAccounts", [chunk, config]), chunk.length));
    }
    return accounts;
  }

  /** Writable accounts and invoked programs of a transaction; null when the node does not know it. */
  async getTransactionAccounts(signature: string, commitment?: string): Promise<TransactionAccounts | null> {
    const config = { encoding: "json", maxSupportedTransactionVersion: 0, commitment: commitment ?? this.options.commitment };
    return parseTransactionAccounts(await this.call("getTransaction", [signature, config]));
  }

  /** Sent with the next batch, so it shares one HTTP request with the reads asked for in the same turn. */
  async getLatestBlockhash(): Promise<LatestBlockhash> {
    return parseLatestBlockhash(await this.call("getLatestBlockhash", [{ commitment: this.options.commitment }]));
  }

  async getMinimumBalanceForRentExemption(bytes: number): Promise<bigint> {
    return parseLamports(await this.call("getMinimumBalanceForRentExemption", [bytes, { commitment: this.options.commitment }]));
  }

  private async call(method: string, params: readonly unknown[]): Promise<unknown> {
    const outcome = await this.accounts.enqueueCall({ method, params });
    if (!outcome.ok) throw outcome.error;
    return outcome.result;
  }

  isSolCutoffReached(): boolean | Promise<boolean> {
    return this.cutoff.isReached();
  }
}
