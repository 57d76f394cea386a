import type { Address } from "@solana/kit";
import type { AccountData } from "../sns/accounts.js";
import { RpcError } from "./errors.js";
import type { JsonRpcClient, RpcCall } from "./json-rpc.js";
import { parseMultipleAccounts } from "./results.js";

export interface AccountLoaderOptions {
  readonly commitment: string;
  /** getMultipleAccounts accepts at most 100 keys per call. */
  readonly maxKeysPerCall: number;
  /** Calls packed into one HTTP request as a JSON-RPC batch array. */
  readonly maxCallsPerRequest: number;
  /** HTTP requests in flight before new keys wait for one to finish. */
  readonly maxInFlight: number;
  /** Longest a queued key waits for a free slot before it is sent anyway. */
  readonly windowMs: number;
  /** Queued keys beyond this are refused rather than buffered without bound. */
  readonly maxQueuedKeys: number;
}

interface Pending {
  readonly key: string;
  resolve(account: AccountData | null): void;
  reject(error: unknown): void;
}

/**
 * Merges account reads from concurrent resolutions into few
 * getMultipleAccounts calls. A key already queued or in flight is shared, so
 * concurrent readers of one account cost one fetch.
 */
export class AccountLoader {
  private readonly shared = new Map<string, Promise<AccountData | null>>();
  private queue: Pending[] = [];
  private inFlight = 0;
  private immediate: NodeJS.Immediate | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly client: JsonRpcClient,
    private readonly options: AccountLoaderOptions,
  ) {}

  load(keys: readonly Address[]): Promise<(AccountData | null)[]> {
    return Promise.all(keys.map((key) => this.loadOne(key)));
  }

  private loadOne(key: string): Promise<AccountData | null> {
    const existing = this.shared.get(key);
    if (existing) return existing;
    if (this.queue.length >= this.options.maxQueuedKeys) {
      return Promise.reject(new RpcError("network", "too many account reads queued for this RPC endpoint"));
    }
    const promise = new Promise<AccountData | null>((resolve, reject) => {
      this.queue.push({ key, resolve, reject });
    });
    this.shared.set(key, promise);
    const forget = () => this.shared.delete(key);
    promise.then(forget, forget);
    this.schedule();
    return promise;
  }

  private schedule(): void {
    if (this.inFlight < this.options.maxInFlight) {
      // Gather everything requested during this turn of the event loop.
      this.immediate ??= setImmediate(() => this.flush());
    } else {
      this.timer ??= setTimeout(() => this.flush(), this.options.windowMs);
    }
  }

  private flush(): void {
    if (this.immediate) clearImmediate(this.immediate);
    if (this.timer) clearTimeout(this.timer);
    this.immediate = this.timer = undefined;
    const { maxKeysPerCall, maxCallsPerRequest, commitment } = this.options;
    const taken = this.queue.splice(0, maxKeysPerCall * maxCallsPerRequest);
    if (taken.length === 0) return;
    const groups: Pending[][] = [];
    for (let i = 0; i < taken.length; i += maxKeysPerCall) groups.push(taken.slice(i, i + maxKeysPerCall));
    const calls: RpcCall[] = groups.map((group) => ({
      method: "getMultipleAccounts",
      params: [group.map((p) => p.key), { encoding: "base64", commitment }],
    }));
    this.inFlight++;
    this.client
      .batch(calls)
      .then(
        (outcomes) => outcomes.forEach((outcome, i) => settle(groups[i]!, outcome.ok ? outcome.result : outcome.error, outcome.ok)),
        (error: unknown) => groups.forEach((group) => settle(group, error, false)),
      )
      .finally(() => {
        this.inFlight--;
        if (this.queue.length > 0) this.schedule();
      });
    if (this.queue.length > 0) this.schedule();
  }
}

function settle(group: Pending[], resultOrError: unknown, ok: boolean): void {
  if (!ok) {
    for (const pending of group) pending.reject(resultOrError);
    return;
  }
  let accounts: (AccountData | null)[];
  try {
    accounts = parseMultipleAccounts(resultOrError, group.length);
  } catch (error) {
    for (const pending of group) pending.reject(error);
    return;
  }
  group.forEach((pending, i) => pending.resolve(accounts[i]!));
}
