import type { Address } from "@solana/kit";
import type { AccountData } from "../sns/chain.js";
import { NO_TELEMETRY, type Telemetry } from "../telemetry.js";
import { RpcError } from "./errors.js";
import type { JsonRpcClient, RpcCall, RpcOutcome } from "./json-rpc.js";
import { parseMultipleAccounts } from "./results.js";

export interface AccountLoaderOptions {
  readonly commitment: string;
  /** getMultipleAccounts accepts at most 100 keys per call. */
  readonly maxKeysPerCall: number;
  /** Calls (account groups first, then other calls) packed into one HTTP request as a JSON-RPC batch array. */
  readonly maxCallsPerRequest: number;
  /** HTTP requests in flight before new keys wait for one to finish. */
  readonly maxInFlight: number;
  /** Longest a queued key waits for a free slot before it is sent anyway. */
  readonly windowMs: number;
  /** Queued keys (and queued other calls) beyond this are refused rather than buffered without bound. */
  readonly maxQueuedKeys: number;
  /**
   * Runs a task once everything requested during this turn of the event loop
   * has been gathered (Node: `setImmediate`, after the turn's I/O callbacks);
   * returns a cancel function. Default: a zero-delay timer.
   */
  readonly defer?: Defer;
}

export type Defer = (task: () => void) => () => void;

const deferByTimer: Defer = (task) => {
  const timer = setTimeout(task, 0);
  return () => clearTimeout(timer);
};

interface Pending {
  readonly key: string;
  resolve(account: AccountData | null): void;
  reject(error: unknown): void;
}

interface PendingCall {
  readonly call: RpcCall;
  settle(outcome: RpcOutcome): void;
}

/**
 * Merges account reads from concurrent resolutions into few
 * getMultipleAccounts calls, and lets other calls ride in the same JSON-RPC
 * batch array. A key already queued or in flight is shared, so concurrent
 * readers of one account cost one fetch.
 */
export class AccountLoader {
  private readonly shared = new Map<string, Promise<AccountData | null>>();
  private queue: Pending[] = [];
  private calls: PendingCall[] = [];
  private inFlight = 0;
  private cancelDeferred: (() => void) | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly client: JsonRpcClient,
    private readonly options: AccountLoaderOptions,
    private readonly telemetry: Telemetry = NO_TELEMETRY,
  ) {}

  load(keys: readonly Address[]): Promise<(AccountData | null)[]> {
    return Promise.all(keys.map((key) => this.loadOne(key)));
  }

  private loadOne(key: string): Promise<AccountData | null> {
    const existing = this.shared.get(key);
    if (existing) {
      this.telemetry.coalesced("account");
      return existing;
    }
    if (this.queue.length >= this.options.maxQueuedKeys) {
      return Promise.reject(new RpcError("network", "too many account reads queued for this RPC endpoint"));
    }
    const promise = new Promise<AccountData | null>((resolve, reject) => {
      this.queue.push({ key, resolve, reject });
    });
    this.telemetry.rpcQueueChanged(1);
    this.shared.set(key, promise);
    const forget = () => this.shared.delete(key);
    promise.then(forget, forget);
    this.schedule();
    return promise;
  }

  /** Any other call, sent with the next batch; its outcome is settled on its own. */
  enqueueCall(call: RpcCall): Promise<RpcOutcome> {
    if (this.calls.length >= this.options.maxQueuedKeys) {
      return Promise.resolve({ ok: false, error: new RpcError("network", "too many calls queued for this RPC endpoint") });
    }
    const outcome = new Promise<RpcOutcome>((settle) => this.calls.push({ call, settle }));
    this.telemetry.rpcQueueChanged(1);
    this.schedule();
    return outcome;
  }

  private get hasWork(): boolean {
    return this.queue.length > 0 || this.calls.length > 0;
  }

  private schedule(): void {
    if (this.inFlight < this.options.maxInFlight) {
      // Gather everything requested during this turn of the event loop.
      this.cancelDeferred ??= (this.options.defer ?? deferByTimer)(() => this.flush());
    } else {
      this.timer ??= setTimeout(() => this.flush(), this.options.windowMs);
    }
  }

  private flush(): void {
    this.cancelDeferred?.();
    if (this.timer) clearTimeout(this.timer);
    this.cancelDeferred = this.timer = undefined;
    const { maxKeysPerCall, maxCallsPerRequest, commitment } = this.options;
    const taken = this.queue.splice(0, maxKeysPerCall * maxCallsPerRequest);
    const groups: Pending[][] = [];
    for (let i = 0; i < taken.length; i += maxKeysPerCall) groups.push(taken.slice(i, i + maxKeysPerCall));
    const others = this.calls.splice(0, Math.max(1, maxCallsPerRequest - groups.length));
    if (groups.length === 0 && others.length === 0) return;
    this.telemetry.rpcQueueChanged(-(taken.length + others.length));
    for (const group of groups) this.telemetry.accountsBatched(group.length);
    const calls: RpcCall[] = [
      ...groups.map((group) => ({
        method: "getMultipleAccounts",
        params: [group.map((p) => p.key), { encoding: "base64", commitment }],
      })),
      ...others.map((pending) => pending.call),
    ];
    this.inFlight++;
    this.client
      .batch(calls)
      .then(
        (outcomes) =>
          outcomes.forEach((outcome, i) => {
            if (i < groups.length) settleGroup(groups[i]!, outcome);
            else others[i - groups.length]!.settle(outcome);
          }),
        (error: Error) => {
          const outcome: RpcOutcome = { ok: false, error };
          for (const group of groups) settleGroup(group, outcome);
          for (const pending of others) pending.settle(outcome);
        },
      )
      .finally(() => {
        this.inFlight--;
        if (this.hasWork) this.schedule();
      });
    if (this.hasWork) this.schedule();
  }
}

function settleGroup(group: Pending[], outcome: RpcOutcome): void {
  if (!outcome.ok) {
    for (const pending of group) pending.reject(outcome.error);
    return;
  }
  let accounts: (AccountData | null)[];
  try {
    accounts = parseMultipleAccounts(outcome.result, group.length);
  } catch (error) {
    for (const pending of group) pending.reject(error);
    return;
  }
  group.forEach((pending, i) => pending.resolve(accounts[i]!));
}
