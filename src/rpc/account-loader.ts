import type { Address } from "@solana/kit";
import type { AccountData } from "../sns/chain.js";
import { RenewedMap } from "../sns/renewed-map.js";
import { NO_TELEMETRY, type Telemetry } from "../telemetry.js";
import type { TraceContexts } from "../tracer.js";
import { INVALID_PARAMS, JsonRpcError, OverloadedError } from "./errors.js";
import { NODE_CONDITION_CODES } from "./failover/node-condition.js";
import type { JsonRpcClient, RpcCall, RpcOutcome } from "./json-rpc.js";
import { type RequestBudget, addPayer } from "./request-budget.js";
import { ReplyGather } from "./reply-gather.js";
import { answeredSlot, parseMultipleAccounts } from "./results.js";

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
  /** How a batch reply's reads are settled, made once per loader (it judges its own endpoint); absent: all at once. */
  readonly pacing?: () => SettlePacing;
  /**
   * The trace context of each queued read, when tracing: a batch is posted in
   * the context of its first read, not in that of whatever callback flushes it
   * (a reply's settling carries the context of the request it was sent for).
   */
  readonly contexts?: TraceContexts;
  /**
   * After a reply, how long the reads of the requests it answered may be
   * held while each poll phase brings more of them (reply-gather.ts); 0 or
   * absent: none held. Needs a `defer` that runs after each poll phase.
   */
  readonly gatherMs?: number;
}

export type Defer = (task: () => void) => () => void;

/**
 * How the answers one batch reply releases are spread over event-loop turns.
 * Settled at once, a reply for dozens of requests writes all their answers in
 * one macrotask: the clients answered first send their next request right
 * away, but it is not read until the last answer is written, and then waits a
 * whole RPC round trip more. Settled a slice at a time with a read of I/O in
 * between, those requests are read and sent while the rest is answered.
 */
export interface SettlePacing {
  /**
   * Account reads to settle before reading I/O again, for a reply being
   * settled now; 0: all at once. `roundTripMs`: from the batch's flush to its
   * reply's settling (the loop's wait for the reply's turn included), or
   * undefined when no call of the reply succeeded (a failure says nothing of
   * the node's distance).
   */
  slice(roundTripMs: number | undefined): number;
  /** Runs a task once the event loop has read the I/O that arrived meanwhile. */
  readonly yieldToIo: Defer;
}

/** Turns of the event loop one batch reply's reads are spread over, at most. */
const MAX_PACED_TURNS = 6;

const deferByTimer: Defer = (task) => {
  const timer = setTimeout(task, 0);
  return () => clearTimeout(timer);
};

interface Pending {
  readonly key: string;
  /** Bytes of the account's data asked for, from its start (`dataSlice`); 0: all of it. */
  readonly head: number;
  /** Its entry in `unsettled`: the key, or for a head the key and its length (another read than the whole account). */
  readonly mapKey: string;
  /** The request that first asked for it. */
  readonly budget: RequestBudget | undefined;
  /**
   * Requests that asked for it since: those that joined while it was queued
   * pay for the call that carries it too, so it is sent while any of them
   * can pay (one whose budget or allowance ran out fails no one else's
   * read); those that joined once it was sent pay nothing more. All of them
   * note the slot it was read at (RequestBudget.noteSlot).
   */
  joiners?: RequestBudget[];
  /** Sent: who joins now only notes its slot (a repeat in `joiners` costs nothing then, so none is looked for). */
  sent: boolean;
  /** The trace context it was asked in (AccountLoaderOptions.contexts); undefined when not tracing. */
  readonly context: unknown;
  /** The `load` call that first asked for it, and where in that call's keys. */
  readonly call: LoadCall;
  readonly index: number;
  /** Every other place it is asked for: later calls sharing it, or a key asked twice in one call. */
  shared?: Waiter[];
}

/**
 * One `load` call: its accounts fill in as their reads settle, and it settles once, with all of them or
 * with the first failure. One promise per call rather than one per key: a request's reads wait while its
 * RPC round trip is under way, and a collection copies whatever they hold (a bulk request holds
 * thousands).
 */
interface LoadCall {
  readonly accounts: (AccountData | null)[];
  left: number;
  settled: boolean;
  resolve(accounts: (AccountData | null)[]): void;
  reject(error: unknown): void;
}

interface Waiter {
  readonly call: LoadCall;
  readonly index: number;
}

function fill(call: LoadCall, index: number, account: AccountData | null): void {
  if (call.settled) return;
  call.accounts[index] = account;
  if (--call.left === 0) {
    call.settled = true;
    call.resolve(call.accounts);
  }
}

function fail(call: LoadCall, error: unknown): void {
  if (call.settled) return;
  call.settled = true;
  call.reject(error);
}

/** A settled read's account, to every call that asked for it. */
function resolveRead(pending: Pending, account: AccountData | null): void {
  fill(pending.call, pending.index, account);
  if (pending.shared) for (const { call, index } of pending.shared) fill(call, index, account);
}

function rejectRead(pending: Pending, error: unknown): void {
  fail(pending.call, error);
  if (pending.shared) for (const { call } of pending.shared) fail(call, error);
}

/** The reads of one getMultipleAccounts call of a batch, with what the reply said of them. */
type GroupResult =
  | { readonly group: Pending[]; readonly accounts: (AccountData | null)[]; readonly slot: number }
  | { readonly group: Pending[]; readonly error: unknown };

interface PendingCall {
  readonly call: RpcCall;
  readonly budget: RequestBudget | undefined;
  /** As Pending's: requests sharing this call (a coalesced one) while it is queued. */
  joiners?: RequestBudget[];
  /** As Pending's. */
  readonly context: unknown;
  settle(outcome: RpcOutcome): void;
}

/** A queued call others may share: `join` adds a request that pays for it too, until it is sent. */
export interface SharedCall {
  readonly outcome: Promise<RpcOutcome>;
  join(budget: RequestBudget | undefined): void;
}

/** Adds `budget` to the requests paying for a queued read or call. */
function addJoiner(
  pending: { readonly budget: RequestBudget | undefined; joiners?: RequestBudget[] },
  budget: RequestBudget | undefined,
): void {
  if (!budget || budget === pending.budget) return;
  const joiners = (pending.joiners ??= []);
  if (!joiners.includes(budget)) joiners.push(budget);
}

/**
 * `budget` asks for a read not settled yet: while it is queued, a payer of
 * the call that carries it (addJoiner); once sent, only a request that
 * notes its slot.
 */
function joinRead(pending: Pending, budget: RequestBudget | undefined): void {
  if (!pending.sent) addJoiner(pending, budget);
  else if (budget && budget !== pending.budget) (pending.joiners ??= []).push(budget);
}

/**
 * Merges account reads from concurrent resolutions into few
 * getMultipleAccounts calls, and lets other calls ride in the same JSON-RPC
 * batch array. A key already queued or in flight is shared, so concurrent
 * readers of one account cost one fetch.
 */
export class AccountLoader {
  /**
   * The reads not settled yet (queued or in flight), by key: who asks for
   * one shares it, notes its slot, and pays for it too while it is not sent
   * (payersOf, at the flush). One map: every read enters and leaves it once,
   * and under load its table is rebuilt as it fills with deleted entries.
   */
  private readonly unsettled = new RenewedMap<string, Pending>();
  private queue: Pending[] = [];
  /** Reads of heads in `queue`: while there are none, a flush needs not sort reads by what they ask for. */
  private headsQueued = 0;
  /** The node refused a call of heads as invalid (INVALID_PARAMS): heads are read as whole accounts from then on. */
  private headsRefused = false;
  private calls: PendingCall[] = [];
  private inFlight = 0;
  private cancelDeferred: (() => void) | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /**
   * When the oldest read or call now queued was queued (performance.now());
   * what a full flush leaves keeps the time of those it sent, and leaves at the next chance.
   */
  private oldestQueuedAt = 0;
  private readonly gather: ReplyGather | undefined;
  private readonly pacing: SettlePacing | undefined;

  constructor(
    private readonly client: JsonRpcClient,
    private readonly options: AccountLoaderOptions,
    private readonly telemetry: Telemetry = NO_TELEMETRY,
  ) {
    if (options.gatherMs) this.gather = new ReplyGather(options.gatherMs);
    this.pacing = options.pacing?.();
  }

  /**
   * `budget`: the request the reads are for; it pays for the calls that carry them (request-budget.ts).
   * `heads`: where `heads[i]` is above 0, only the first that many bytes of account i's data are read
   * (getMultipleAccounts' `dataSlice`), in calls of their own; absent: whole accounts.
   */
  load(keys: readonly Address[], budget?: RequestBudget, heads?: readonly number[]): Promise<(AccountData | null)[]> {
    try {
      budget?.check();
    } catch (error) {
      return Promise.reject(error);
    }
    if (this.gather?.active) this.gather.asked(budget, performance.now());
    let call!: LoadCall;
    const loaded = new Promise<(AccountData | null)[]>((resolve, reject) => {
      call = {
        accounts: new Array<AccountData | null>(keys.length),
        left: keys.length,
        settled: false,
        resolve,
        reject,
      };
    });
    if (keys.length === 0) {
      call.settled = true;
      call.resolve(call.accounts);
    }
    const withHeads = heads !== undefined && !this.headsRefused;
    for (let i = 0; i < keys.length && !call.settled; i++)
      this.loadOne(keys[i]!, withHeads ? (heads[i] ?? 0) : 0, budget, call, i);
    return loaded;
  }

  /** Asks for `key` as key `index` of `call`: shared with a read not settled yet, or queued. */
  private loadOne(key: string, head: number, budget: RequestBudget | undefined, call: LoadCall, index: number): void {
    const mapKey = head === 0 ? key : `${key}/${head}`;
    const existing = this.unsettled.get(mapKey);
    if (existing) {
      this.telemetry.coalesced("account");
      joinRead(existing, budget);
      (existing.shared ??= []).push({ call, index });
      return;
    }
    if (this.queue.length >= this.options.maxQueuedKeys) {
      fail(call, new OverloadedError("too many account reads queued for this RPC endpoint"));
      return;
    }
    if (!this.hasWork) this.oldestQueuedAt = performance.now();
    const context = this.options.contexts?.capture();
    const pending: Pending = { key, head, mapKey, budget, sent: false, context, call, index };
    this.queue.push(pending);
    if (head !== 0) this.headsQueued++;
    // Forgotten when settled (`settled`), before any reader's continuation runs: no reaction of its own.
    this.unsettled.set(mapKey, pending);
    this.telemetry.rpcQueueChanged(1);
    this.schedule();
  }

  /** Any other call, sent with the next batch; its outcome is settled on its own. `budget`: as for `load`. */
  enqueueCall(call: RpcCall, budget?: RequestBudget): Promise<RpcOutcome> {
    return this.enqueueSharedCall(call, budget).outcome;
  }

  /** `enqueueCall`, for a call concurrent requests share: each that joins it while it is queued pays for it too. */
  enqueueSharedCall(call: RpcCall, budget?: RequestBudget): SharedCall {
    try {
      budget?.check();
    } catch (error) {
      return { outcome: Promise.resolve({ ok: false, error: error as Error }), join: noJoin };
    }
    if (this.calls.length >= this.options.maxQueuedKeys) {
      return {
        outcome: Promise.resolve({
          ok: false,
          error: new OverloadedError("too many calls queued for this RPC endpoint"),
        }),
        join: noJoin,
      };
    }
    if (this.gather?.active) this.gather.asked(budget, performance.now());
    if (!this.hasWork) this.oldestQueuedAt = performance.now();
    let pending!: PendingCall;
    const outcome = new Promise<RpcOutcome>((settle) => {
      pending = { call, budget, context: this.options.contexts?.capture(), settle };
      this.calls.push(pending);
    });
    this.telemetry.rpcQueueChanged(1);
    this.schedule();
    return {
      outcome,
      join: (joiner) => {
        // Rare (a mint asked for by two requests at once): a scan of the queue is cheap enough.
        if (this.calls.includes(pending)) addJoiner(pending, joiner);
      },
    };
  }

  private get hasWork(): boolean {
    return this.queue.length > 0 || this.calls.length > 0;
  }

  private get slotFree(): boolean {
    return this.inFlight < this.options.maxInFlight;
  }

  private schedule(): void {
    const gathering = this.gather?.active === true;
    // Gather everything requested during this turn of the event loop.
    if (gathering || this.slotFree)
      this.cancelDeferred ??= (this.options.defer ?? deferByTimer)(() => this.atTurnEnd());
    if (gathering) this.armTimer(this.gather!.deadline(this.oldestQueuedAt));
    else if (!this.slotFree) this.armTimer(this.oldestQueuedAt + this.options.windowMs);
  }

  private armTimer(at: number): void {
    this.timer ??= setTimeout(() => this.atTimer(), Math.max(0, at - performance.now()));
  }

  /** Once the reads requested during this turn are queued: sent, held by a gather, or left to the window. */
  private atTurnEnd(): void {
    this.cancelDeferred = undefined;
    const { gather } = this;
    if (gather?.active && gather.holds(performance.now(), this.oldestQueuedAt)) {
      this.cancelDeferred = (this.options.defer ?? deferByTimer)(() => this.atTurnEnd());
      return;
    }
    if (this.slotFree) this.flush();
    else if (this.hasWork) {
      // The window runs from the oldest queued read, not from the gather's bound; already over, it sends now
      // (a timer of 0 would fire a millisecond later).
      if (this.timer) clearTimeout(this.timer);
      this.timer = undefined;
      const windowEnd = this.oldestQueuedAt + this.options.windowMs;
      if (windowEnd <= performance.now()) this.flush();
      else this.armTimer(windowEnd);
    }
  }

  /** The window, or a gather's bound, has passed: sent whatever the count in flight. */
  private atTimer(): void {
    this.timer = undefined;
    const { gather } = this;
    if (gather?.active) {
      const deadline = gather.deadline(this.oldestQueuedAt);
      // A window shorter than the gather's bound ends with the gather.
      if (deadline - performance.now() > 0.1) return this.armTimer(deadline);
      gather.end();
      // A bound shorter than the window: the window still holds while no slot is free.
      if (!this.slotFree && this.oldestQueuedAt + this.options.windowMs - performance.now() > 0.1) {
        return this.armTimer(this.oldestQueuedAt + this.options.windowMs);
      }
    }
    this.flush();
  }

  /** A reply's reads are all settled: the reads of the requests it answered may be gathered (reply-gather.ts). */
  private replySettled(answered: number): void {
    if (!this.gather) return;
    this.gather.start(answered, performance.now());
    if (this.hasWork) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = undefined;
      this.schedule();
    }
  }

  /**
   * Settles `results` from read `index` of group `at` on, `slice` reads per
   * turn of the event loop; `remaining` reads are left in all, for `answered`
   * requests. A tail of less than half a slice is settled with the slice
   * before it: a turn of its own would cost more than it saves.
   */
  private settleInSlices(
    results: readonly GroupResult[],
    slice: number,
    at: number,
    index: number,
    remaining: number,
    answered: number,
  ): void {
    let left = remaining - slice < slice / 2 ? remaining : slice;
    for (; at < results.length; at++, index = 0) {
      const result = results[at]!;
      const { group } = result;
      for (; index < group.length; index++) {
        if (left-- === 0) {
          const resumeAt = at;
          const resumeIndex = index;
          const rest = remaining - slice;
          this.pacing!.yieldToIo(() => {
            // Reads requested during the last turn leave before the rest of this reply is answered (held by
            // another reply's gather too: answering this one's requests first matters more than a fuller batch).
            if (this.cancelDeferred && this.slotFree) this.flush();
            this.settleInSlices(results, slice, resumeAt, resumeIndex, rest, answered);
          });
          return;
        }
        const pending = group[index]!;
        this.settled(pending);
        if ("error" in result) rejectRead(pending, result.error);
        else {
          noteSlot(pending, result.slot, result.accounts[index]!);
          resolveRead(pending, result.accounts[index]!);
        }
      }
    }
    this.replySettled(answered);
  }

  /**
   * Reads of heads whose call the node answered with a JSON-RPC error of
   * its own (one that does not take `dataSlice`, say), asked again as reads
   * of whole accounts for the same callers: a shortcut must not fail what a
   * whole read answers. Each joins a read of its whole account under way, or
   * is queued. Refused as invalid, heads are not asked of this endpoint again
   * (AccountLoader.load).
   */
  private readWhole(group: readonly Pending[], error: JsonRpcError): void {
    if (error.code === INVALID_PARAMS) this.headsRefused = true;
    let queued = 0;
    for (const head of group) {
      this.settled(head);
      const existing = this.unsettled.get(head.key);
      if (existing) {
        const waiters = (existing.shared ??= []);
        waiters.push({ call: head.call, index: head.index });
        if (head.shared) waiters.push(...head.shared);
        joinRead(existing, head.budget);
        for (const joiner of head.joiners ?? []) joinRead(existing, joiner);
        continue;
      }
      if (!this.hasWork) this.oldestQueuedAt = performance.now();
      const whole: Pending = { ...head, head: 0, mapKey: head.key, sent: false };
      this.queue.push(whole);
      this.unsettled.set(head.key, whole);
      queued++;
    }
    if (queued === 0) return;
    this.telemetry.rpcQueueChanged(queued);
    this.schedule();
  }

  /**
   * The queued reads the next post carries, in queue order, in
   * getMultipleAccounts calls of at most `maxKeysPerCall` keys and at most
   * `maxCallsPerRequest` calls: reads of heads of one length share calls,
   * whole accounts theirs. A read whose kind's call is full when the post
   * has no call left waits for the next post, and later reads still fill the
   * calls that are not full: every call but each kind's last carries
   * `maxKeysPerCall` keys, so the calls stay ⌈keys / maxKeysPerCall⌉ per kind.
   */
  private takeGroups(): { taken: Pending[]; groups: Pending[][] } {
    const { maxKeysPerCall, maxCallsPerRequest } = this.options;
    if (this.headsQueued === 0) {
      const taken = this.queue.splice(0, maxKeysPerCall * maxCallsPerRequest);
      const groups: Pending[][] = [];
      for (let i = 0; i < taken.length; i += maxKeysPerCall) groups.push(taken.slice(i, i + maxKeysPerCall));
      return { taken, groups };
    }
    const taken: Pending[] = [];
    const groups: Pending[][] = [];
    const filling = new Map<number, Pending[]>();
    const { queue } = this;
    // Reads of each kind not yet looked at: once the post has all its calls, the scan ends when no call that
    // is not full has a read of its kind left behind.
    let headsAhead = this.headsQueued;
    let wholeAhead = queue.length - headsAhead;
    let partWhole = false;
    // Calls of heads not full (one per length at most).
    let partHeads = 0;
    // Reads that wait for the next post are moved down over the ones taken, in order.
    let kept = 0;
    let at = 0;
    for (; at < queue.length; at++) {
      if (groups.length === maxCallsPerRequest && !(partWhole && wholeAhead > 0) && !(partHeads > 0 && headsAhead > 0))
        break;
      const pending = queue[at]!;
      const isHead = pending.head !== 0;
      if (isHead) headsAhead--;
      else wholeAhead--;
      let group = filling.get(pending.head);
      if (group === undefined || group.length === maxKeysPerCall) {
        if (groups.length === maxCallsPerRequest) {
          queue[kept++] = pending;
          continue;
        }
        filling.set(pending.head, (group = []));
        groups.push(group);
        if (isHead) partHeads++;
      }
      group.push(pending);
      taken.push(pending);
      if (isHead) {
        this.headsQueued--;
        if (group.length === maxKeysPerCall) partHeads--;
      } else partWhole = group.length < maxKeysPerCall;
    }
    queue.copyWithin(kept, at);
    queue.length = kept + queue.length - at;
    return { taken, groups };
  }

  private flush(): void {
    this.cancelDeferred?.();
    if (this.timer) clearTimeout(this.timer);
    this.cancelDeferred = this.timer = undefined;
    const { maxCallsPerRequest, commitment } = this.options;
    const { taken, groups } = this.takeGroups();
    for (const pending of taken) pending.sent = true;
    const others = this.calls.splice(0, Math.max(1, maxCallsPerRequest - groups.length));
    if (groups.length === 0 && others.length === 0) return;
    this.telemetry.rpcQueueChanged(-(taken.length + others.length));
    for (const group of groups) this.telemetry.accountsBatched(group.length);
    const calls: RpcCall[] = [
      ...groups.map((group) => {
        const { head } = group[0]!;
        const config =
          head === 0
            ? { encoding: "base64", commitment }
            : { encoding: "base64", commitment, dataSlice: { offset: 0, length: head } };
        return { method: "getMultipleAccounts", params: [group.map((p) => p.key), config] };
      }),
      ...others.map((pending) => pending.call),
    ];
    this.inFlight++;
    const sentAt = performance.now();
    const payers = payersOf(groups, others);
    const answered = payers?.size ?? 1;
    const traced = payers && tracesOf(payers, calls);
    const { contexts } = this.options;
    const posted = contexts
      ? contexts.runIn((taken[0] ?? others[0])!.context, () => this.client.batch(calls, payers))
      : this.client.batch(calls, payers);
    posted
      .then(
        (outcomes) => {
          if (traced) traced.settled(outcomes.every((outcome) => outcome.ok) ? "ok" : "some calls failed");
          for (let i = 0; i < groups.length; i++) {
            const refusal = groups[i]![0]!.head !== 0 ? refusedHeads(outcomes, i) : undefined;
            if (refusal) {
              this.readWhole(groups[i]!, refusal);
              groups[i] = [];
            }
          }
          // A reply is spread over a few turns at most: at high concurrency each turn reads hundreds of
          // requests, and a reply's last answers would otherwise wait behind dozens of them.
          const paced =
            this.pacing?.slice(outcomes.some((outcome) => outcome.ok) ? performance.now() - sentAt : undefined) ?? 0;
          const slice = paced && Math.max(paced, Math.ceil(taken.length / MAX_PACED_TURNS));
          if (slice === 0 || taken.length < slice * 1.5) {
            outcomes.forEach((outcome, i) => {
              if (i < groups.length) this.settleGroup(groups[i]!, outcome);
              else others[i - groups.length]!.settle(outcome);
            });
            this.replySettled(answered);
            return;
          }
          this.telemetry.rpcReplyPaced();
          for (let i = groups.length; i < outcomes.length; i++) others[i - groups.length]!.settle(outcomes[i]!);
          const results = groups.map((group, i) => groupResult(group, outcomes[i]!));
          this.settleInSlices(results, slice, 0, 0, taken.length, answered);
        },
        (error: Error) => {
          if (traced) traced.settled("failed");
          const outcome: RpcOutcome = { ok: false, error };
          for (const group of groups) this.settleGroup(group, outcome);
          for (const pending of others) pending.settle(outcome);
        },
      )
      .finally(() => {
        this.inFlight--;
        if (this.hasWork) this.schedule();
      });
    if (this.hasWork) this.schedule();
  }

  /**
   * A read about to settle: later askers start a new one. Every settled read
   * passes here right before the calls waiting for it are filled
   * (`resolveRead`, `rejectRead`), and the readers' continuations run only
   * after, so none of them shares a settled read.
   */
  private settled(pending: Pending): void {
    if (this.unsettled.get(pending.mapKey) === pending) this.unsettled.delete(pending.mapKey);
  }

  private settleGroup(group: Pending[], outcome: RpcOutcome): void {
    for (const pending of group) this.settled(pending);
    if (!outcome.ok) {
      for (const pending of group) rejectRead(pending, outcome.error);
      return;
    }
    let accounts: (AccountData | null)[];
    try {
      accounts = parseMultipleAccounts(outcome.result, group.length);
    } catch (error) {
      for (const pending of group) rejectRead(pending, error);
      return;
    }
    const slot = answeredSlot(outcome.result);
    group.forEach((pending, i) => {
      noteSlot(pending, slot, accounts[i]!);
      resolveRead(pending, accounts[i]!);
    });
  }
}

/**
 * Every request that asked for a read notes the slot it was answered at;
 * a traced one (request-trace.ts) also what it read, and whether the read
 * was another request's too.
 */
function noteSlot(pending: Pending, slot: number, account: AccountData | null): void {
  const { budget, joiners } = pending;
  if (budget) {
    budget.noteSlot(slot);
    budget.trace?.read(pending.key, account, slot, joiners !== undefined, pending.head);
  }
  if (joiners) {
    for (const joiner of joiners) {
      joiner.noteSlot(slot);
      joiner.trace?.read(pending.key, account, slot, true, pending.head);
    }
  }
}

/** The traced payers of a post, told it is sent; undefined (the common case) when none is traced. */
function tracesOf(
  payers: ReadonlyMap<RequestBudget, number>,
  calls: readonly RpcCall[],
): { settled(outcome: string): void } | undefined {
  let traced: RequestBudget[] | undefined;
  for (const budget of payers.keys()) if (budget.trace !== undefined) (traced ??= []).push(budget);
  if (!traced) return undefined;
  const sentAt = performance.now();
  // With more than one payer the post carries other requests' calls and keys too: said, with this one's share.
  const shared = payers.size > 1;
  for (const budget of traced) budget.trace!.postSent(payers, calls, shared ? payers.get(budget) : undefined);
  return {
    settled(outcome) {
      for (const budget of traced) budget.trace!.postSettled(payers, performance.now() - sentAt, outcome);
    },
  };
}

/** Each request with how many of the batch's calls carry its reads or are its own. */
function payersOf(
  groups: readonly Pending[][],
  others: readonly PendingCall[],
): Map<RequestBudget, number> | undefined {
  let payers: Map<RequestBudget, number> | undefined;
  for (const group of groups) {
    let previous: RequestBudget | undefined;
    const seen = new Set<RequestBudget>();
    const pay = (budget: RequestBudget | undefined) => {
      if (!budget || budget === previous || seen.has(budget)) return;
      previous = budget;
      seen.add(budget);
      addPayer((payers ??= new Map()), budget);
    };
    for (const pending of group) {
      pay(pending.budget);
      if (pending.joiners) for (const joiner of pending.joiners) pay(joiner);
    }
  }
  for (const { budget, joiners } of others) {
    if (budget) addPayer((payers ??= new Map()), budget);
    if (joiners) for (const joiner of joiners) addPayer((payers ??= new Map()), joiner);
  }
  return payers;
}

const noJoin = (): void => {};

/**
 * The error call `i` of a reply, a call of heads, was refused with on its
 * own: a JSON-RPC error for that call, not the node's condition (behind,
 * unhealthy: a whole read would meet it too) nor one error for the whole
 * batch; undefined for anything else.
 */
function refusedHeads(outcomes: readonly RpcOutcome[], i: number): JsonRpcError | undefined {
  const outcome = outcomes[i]!;
  if (outcome.ok || !(outcome.error instanceof JsonRpcError)) return undefined;
  const { error } = outcome;
  if (NODE_CONDITION_CODES.has(error.code)) return undefined;
  return outcomes.some((other, j) => j !== i && !other.ok && other.error === error) ? undefined : error;
}

function groupResult(group: Pending[], outcome: RpcOutcome): GroupResult {
  if (!outcome.ok) return { group, error: outcome.error };
  try {
    return { group, accounts: parseMultipleAccounts(outcome.result, group.length), slot: answeredSlot(outcome.result) };
  } catch (error) {
    return { group, error };
  }
}
