import type { Address } from "@solana/kit";
import { encodeBase58 } from "../sns/bytes.js";
import type { AccountData, AccountFilter, ChainReader, ProgramAccounts, ProgramAccountsQuery, TokenAmountEntry } from "../sns/chain.js";
import { AccountLoader, type AccountLoaderOptions } from "./account-loader.js";
import type { AnswerSizing } from "./answer-shape.js";
import { INVALID_PARAMS, JsonRpcError } from "./errors.js";
import { JsonRpcClient } from "./json-rpc.js";
import { parseProgramAccounts, parseTokenLargestAccounts } from "./results.js";
import { SolCutoffGate } from "./sol-cutoff-gate.js";
import type { RpcTransport } from "./transport.js";

const encodeFilter = (filter: AccountFilter) =>
  "dataSize" in filter
    ? { dataSize: filter.dataSize }
    : { memcmp: { offset: filter.memcmp.offset, bytes: encodeBase58(filter.memcmp.bytes) } };

/** One RPC endpoint with its own batching, coalescing and `.sol` cutoff memory. */
export class RpcEndpoint implements ChainReader {
  private readonly client: JsonRpcClient;
  private readonly accounts: AccountLoader;
  private readonly cutoff: SolCutoffGate;
  private readonly largestByMint = new Map<string, Promise<readonly TokenAmountEntry[] | null>>();

  constructor(
    transport: RpcTransport,
    private readonly options: AccountLoaderOptions,
    sizing?: AnswerSizing,
  ) {
    this.client = new JsonRpcClient(transport, sizing);
    this.accounts = new AccountLoader(this.client, options);
    this.cutoff = new SolCutoffGate(this.client);
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
    };
    const outcome = await this.accounts.enqueueCall({ method: "getProgramAccounts", params: [program, config] });
    if (!outcome.ok) throw outcome.error;
    return parseProgramAccounts(outcome.result);
  }

  isSolCutoffReached(): Promise<boolean> {
    return this.cutoff.isReached();
  }
}
