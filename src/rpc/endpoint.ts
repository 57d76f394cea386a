import type { Address } from "@solana/kit";
import { encodeBase58 } from "../sns/bytes.js";
import { RenewedMap } from "../sns/renewed-map.js";
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
import type { BudgetLimits, RequestBudget } from "./request-budget.js";
import {
  MAX_TRANSACTION_VERSION,
  answeredSlot,
  type SignatureEntry,
  type TransactionAccounts,
  parseLamports,
  parseLatestBlockhash,
  parseMultipleAccounts,
  parseProgramAccounts,
  parseSignatures,
  parseSlot,
  parseTokenLargestAccounts,
  parseTransactionAccounts,
} from "./results.js";
import { type CutoffState, SolCutoffGate } from "./sol-cutoff-gate.js";
import type { RpcTransport } from "./transport/contract.js";
import { NO_TELEMETRY, type Telemetry } from "../telemetry.js";

/** Limits of an endpoint built without any (tests, benchmarks): nothing a request asks for is refused. */
const UNBOUNDED: BudgetLimits = {
  deadlineMs: Number.MAX_SAFE_INTEGER / 2,
  maxCalls: Number.MAX_SAFE_INTEGER,
  maxBytes: Number.MAX_SAFE_INTEGER,
  maxItems: Number.MAX_SAFE_INTEGER,
};
/** getMultipleAccounts takes at most 100 keys. */
const MAX_KEYS_PER_CALL = 100;

const encodeFilter = (filter: AccountFilter) =>
  "dataSize" in filter
    ? { dataSize: filter.dataSize }
    : { memcmp: { offset: filter.memcmp.offset, bytes: encodeBase58(filter.memcmp.bytes) } };

/**
 * One RPC endpoint with its own batching, coalescing and `.sol` cutoff
 * memory. Its reads take the budget of the request they are for (the last
 * argument; a request reaches them through its own view, rpc/request-view.ts):
 * that request pays for the calls carrying them. Without one, the read is
 * the gateway's own (the cutoff slot, the tokenized-domain index).
 */
export class RpcEndpoint implements ChainReader, TransactionContextReader {
  private readonly client: JsonRpcClient;
  private readonly accounts: AccountLoader;
  private readonly cutoff: SolCutoffGate;
  private readonly largestByMint = new RenewedMap<
    string,
    { readonly answer: Promise<readonly TokenAmountEntry[] | null>; join(budget?: RequestBudget): void }
  >();
  /** Defined by a request's view of the endpoint (rpc/request-view.ts), not by the endpoint. */
  declare pace?: (items: number) => void | Promise<void>;
  /** The budget a request's view pays from (rpc/request-view.ts); the endpoint itself has none. */
  declare budget?: RequestBudget;

  constructor(
    transport: RpcTransport,
    private readonly options: AccountLoaderOptions,
    sizing?: AnswerSizing,
    cutoff?: CutoffState,
    telemetry: Telemetry = NO_TELEMETRY,
    /** What one request on this endpoint may cause (RPC_BUDGET_* or RPC_OVERRIDE_BUDGET_*). */
    readonly budgetLimits: BudgetLimits = UNBOUNDED,
  ) {
    this.client = new JsonRpcClient(transport, sizing, telemetry);
    this.accounts = new AccountLoader(this.client, options, telemetry);
    this.cutoff = new SolCutoffGate(this.client, cutoff);
  }

  get url(): string {
    return this.client.transport.url;
  }

  getAccounts(keys: readonly Address[], budget?: RequestBudget): Promise<(AccountData | null)[]> {
    return this.accounts.load(keys, budget);
  }

  /**
   * getAccounts, with only the first `heads[i]` bytes of account i's data where that is above 0
   * (AccountLoader.load). Not named as ChainReader.getAccountHeads: a query reads heads only from a reader
   * that offers that method (a bulk request's view, rpc/gathered-reads.ts), and GETs read whole accounts.
   */
  readAccountHeads(
    keys: readonly Address[],
    heads: readonly number[],
    budget?: RequestBudget,
  ): Promise<(AccountData | null)[]> {
    return this.accounts.load(keys, budget, heads);
  }

  getTokenLargestAccounts(mint: Address, budget?: RequestBudget): Promise<readonly TokenAmountEntry[] | null> {
    const shared = this.largestByMint.get(mint);
    if (shared) {
      // Queued still: this request pays for it too, so it is sent while any of its askers can pay.
      shared.join(budget);
      return shared.answer;
    }
    const call = { method: "getTokenLargestAccounts", params: [mint, { commitment: this.options.commitment }] };
    const queued = this.accounts.enqueueSharedCall(call, budget);
    // Every request that asked (whenever it joined) notes the slot of the answer it used.
    const askers: RequestBudget[] = [];
    if (budget) askers.push(budget);
    const answer = queued.outcome.then((outcome) => {
      if (outcome.ok) {
        const entries = parseTokenLargestAccounts(outcome.result);
        const slot = answeredSlot(outcome.result);
        for (const asker of askers) asker.noteSlot(slot);
        return entries;
      }
      // Nodes answer -32602 when the mint account is missing or not a mint.
      if (outcome.error instanceof JsonRpcError && outcome.error.code === INVALID_PARAMS) return null;
      throw outcome.error;
    });
    const join = (joiner?: RequestBudget) => {
      queued.join(joiner);
      if (joiner && !askers.includes(joiner)) askers.push(joiner);
    };
    this.largestByMint.set(mint, { answer, join });
    const forget = () => this.largestByMint.delete(mint);
    answer.then(forget, forget);
    return answer;
  }

  /** Sent with the next batch, like every other call; never coalesced (answers can be large). */
  async getProgramAccounts(
    program: Address,
    query: ProgramAccountsQuery,
    budget?: RequestBudget,
  ): Promise<ProgramAccounts> {
    const config = {
      encoding: "base64",
      commitment: query.commitment ?? this.options.commitment,
      withContext: true,
      filters: query.filters.map(encodeFilter),
      ...(query.dataSlice && { dataSlice: query.dataSlice }),
      ...(query.minContextSlot !== undefined && { minContextSlot: query.minContextSlot }),
    };
    const answer = parseProgramAccounts(await this.call("getProgramAccounts", [program, config], budget));
    budget?.noteSlot(answer.slot);
    return answer;
  }

  /** Newest first, at most `limit`, newer than `until` when given. */
  async getSignaturesForAddress(
    address: Address,
    options: {
      readonly until?: string;
      readonly limit: number;
      readonly commitment?: string;
      readonly minContextSlot?: number;
    },
    budget?: RequestBudget,
  ): Promise<SignatureEntry[]> {
    const config = {
      limit: options.limit,
      commitment: options.commitment ?? this.options.commitment,
      ...(options.until && { until: options.until }),
      ...(options.minContextSlot !== undefined && { minContextSlot: options.minContextSlot }),
    };
    return parseSignatures(await this.call("getSignaturesForAddress", [address, config], budget));
  }

  /**
   * Accounts as of `minContextSlot` or later, outside the batching loader: a
   * node behind that slot refuses (and another endpoint is asked), so what
   * the tokenized index re-reads is never older than what it already has.
   */
  async getAccountsAtLeast(
    keys: readonly Address[],
    minContextSlot: number,
    commitment?: string,
  ): Promise<(AccountData | null)[]> {
    const accounts: (AccountData | null)[] = [];
    for (let i = 0; i < keys.length; i += MAX_KEYS_PER_CALL) {
      const chunk = keys.slice(i, i + MAX_KEYS_PER_CALL);
      const config = { encoding: "base64", commitment: commitment ?? this.options.commitment, minContextSlot };
      accounts.push(
        ...parseMultipleAccounts(await this.call("getMultipleAccounts", [chunk, config], undefined), chunk.length),
      );
    }
    return accounts;
  }

  /**
   * Writable accounts and invoked programs of a transaction; null when the node does not know it.
   * Asks for every version results.ts reads (MAX_TRANSACTION_VERSION): a node refuses a newer
   * transaction than the request allows (-32015) rather than leave it out, and one refusal fails
   * the tokenized index's catch-up.
   */
  async getTransactionAccounts(
    signature: string,
    commitment?: string,
    budget?: RequestBudget,
  ): Promise<TransactionAccounts | null> {
    const config = {
      encoding: "json",
      maxSupportedTransactionVersion: MAX_TRANSACTION_VERSION,
      commitment: commitment ?? this.options.commitment,
    };
    return parseTransactionAccounts(await this.call("getTransaction", [signature, config], budget));
  }

  /** Sent with the next batch, so it shares one HTTP request with the reads asked for in the same turn. */
  async getLatestBlockhash(budget?: RequestBudget): Promise<LatestBlockhash> {
    return parseLatestBlockhash(
      await this.call("getLatestBlockhash", [{ commitment: this.options.commitment }], budget),
    );
  }

  async getMinimumBalanceForRentExemption(bytes: number, budget?: RequestBudget): Promise<bigint> {
    return parseLamports(
      await this.call("getMinimumBalanceForRentExemption", [bytes, { commitment: this.options.commitment }], budget),
    );
  }

  private async call(method: string, params: readonly unknown[], budget: RequestBudget | undefined): Promise<unknown> {
    const outcome = await this.accounts.enqueueCall({ method, params }, budget);
    if (!outcome.ok) throw outcome.error;
    return outcome.result;
  }

  isSolCutoffReached(): boolean | Promise<boolean> {
    return this.cutoff.isReached();
  }

  /** What this endpoint knows of the `.sol` cutoff, reading nothing (`/ready`). */
  get solCutoff(): Readonly<CutoffState> {
    return this.cutoff.known;
  }

  /**
   * The slot the chain is at, `confirmed` (the commitment the tokenized index
   * reads at, so a lag compares like with like): the gateway's own read,
   * outside any request's budget (`/ready`).
   */
  async tipSlot(): Promise<number> {
    return parseSlot(await this.call("getSlot", [{ commitment: "confirmed" }], undefined));
  }
}
