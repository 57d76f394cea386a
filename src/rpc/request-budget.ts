import { RpcFailure } from "./errors.js";
import type { RequestTrace } from "./request-trace.js";

/**
 * What one HTTP request may cause at its RPC endpoint, whatever the endpoint
 * answers: a hostile `rpc` server can list 100,000 accounts or claim a wallet
 * holds 40,000 mints, and the work that follows (reads, scans, derivations)
 * must stop at a bound the operator chose (docs/configuration.md:
 * `RPC_BUDGET_*` for `RPC_URL`, `RPC_OVERRIDE_BUDGET_*` for overrides).
 */
export interface BudgetLimits {
  /** Milliseconds the whole request may take, from when its endpoint is chosen. */
  readonly deadlineMs: number;
  /** JSON-RPC calls it may cause: each call of a batch array counts, and each attempt of a retried call. */
  readonly maxCalls: number;
  /** Bytes of RPC answers it may cause (an answer shared by several requests counts for each). */
  readonly maxBytes: number;
  /** Items of RPC-supplied lists it may work through (listed accounts: key derivations, decoding, scans). */
  readonly maxItems: number;
}

/** Which bound a request reached; `client`: its client's allowance (the override rate limit), not the request's own. */
export type BudgetBound = "deadline" | "calls" | "bytes" | "items" | "client";

/** A request reached one of its bounds: 502 `RPC unavailable`, or 429 for the client's allowance (http/answer/classify.ts). */
export class RpcBudgetError extends RpcFailure {
  constructor(
    readonly bound: BudgetBound,
    message: string,
  ) {
    super("budget", message);
  }
}

/**
 * What a client may still spend (the override rate limit, per client IP):
 * every budget of that client's requests draws on it as it spends calls.
 */
export interface CostAllowance {
  /** Takes `calls` if the client has them left; otherwise takes nothing and answers false. */
  tryTake(calls: number): boolean;
}

/**
 * One request's budget. Created when the request chooses its endpoint (one
 * object per request), consulted by the transport for every JSON-RPC call it
 * sends (calls, answer bytes, the deadline as the longest an exchange may
 * take), and by the work over RPC-supplied lists (items, the deadline).
 * Once a bound is reached the budget stays spent: every later check throws
 * the same error, so the request ends with it.
 */
export class RequestBudget {
  /** `Date.now()` past which the request has run out of time. */
  readonly deadline: number;
  private calls = 0;
  private bytes = 0;
  private items = 0;
  private spent: RpcBudgetError | undefined;
  /**
   * The lowest `context.slot` of the reads this request's answer came from
   * (its own, and the reads it shared with concurrent requests): the chain
   * state it is at least as new as (`X-Context-Slot`). Infinity: none read.
   */
  lowestSlot = Infinity;
  /**
   * When the oldest cached answer this request was answered from was read
   * (the resolver's clock, ms); Infinity: none. A request that reached a
   * cache entry behind an await (the `.sol` cutoff's slot read, a legacy
   * route) still says its `Age` from it.
   */
  cachedReadAt = Infinity;
  /**
   * The lowest slot of the cached answers it was answered from (Infinity:
   * none, or unsaid); apart from `lowestSlot`, which only its reads set:
   * an answer the request resolves and keeps was read at its own reads' slot.
   */
  cachedSlot = Infinity;
  /** How the request was decided, when it asked (`?trace=1`, request-trace.ts); undefined otherwise. */
  trace: RequestTrace | undefined = undefined;

  constructor(
    readonly limits: BudgetLimits,
    private readonly allowance?: CostAllowance,
    now = Date.now(),
  ) {
    this.deadline = now + limits.deadlineMs;
  }

  /** JSON-RPC calls, answer bytes and list items spent so far. */
  get used(): { readonly calls: number; readonly bytes: number; readonly items: number } {
    return { calls: this.calls, bytes: this.bytes, items: this.items };
  }

  /** Why the budget is spent, once it is. */
  get exhausted(): RpcBudgetError | undefined {
    return this.spent;
  }

  /** Milliseconds left before the deadline (0 once past it). */
  remainingMs(now = Date.now()): number {
    return Math.max(0, this.deadline - now);
  }

  /** Notes a read answered at `slot` (0: the node did not say, and nothing is noted). */
  noteSlot(slot: number): void {
    if (slot > 0 && slot < this.lowestSlot) this.lowestSlot = slot;
  }

  /** Notes an answer served from a cache entry read at `readAt` and `slot`: the oldest and lowest count. */
  noteCachedRead(readAt: number, slot: number): void {
    if (readAt < this.cachedReadAt) this.cachedReadAt = readAt;
    if (slot < this.cachedSlot) this.cachedSlot = slot;
  }

  /** Throws the budget's error once a bound was reached or the deadline has passed. */
  check(now = Date.now()): void {
    if (this.spent) throw this.spent;
    if (now >= this.deadline) throw this.exhaust("deadline", `request deadline of ${this.limits.deadlineMs} ms passed`);
  }

  /** Pays for `count` JSON-RPC calls about to be sent; false (nothing paid, budget spent) when they do not fit. */
  tryCalls(count: number): boolean {
    if (!this.usable()) return false;
    if (this.calls + count > this.limits.maxCalls) {
      this.exhaust("calls", `request would cause more than ${this.limits.maxCalls} JSON-RPC calls`);
      return false;
    }
    if (this.allowance && !this.allowance.tryTake(count)) {
      this.exhaust("client", "client has no RPC calls left in this window");
      return false;
    }
    this.calls += count;
    return true;
  }

  /** Pays for `count` bytes of an answer being read; false (budget spent) when they do not fit. */
  tryBytes(count: number): boolean {
    if (this.spent) return false;
    if (this.bytes + count > this.limits.maxBytes) {
      this.exhaust("bytes", `request would cause more than ${this.limits.maxBytes} bytes of RPC answers`);
      return false;
    }
    this.bytes += count;
    return true;
  }

  /** Pays for `count` items of an RPC-supplied list about to be worked through; throws when they do not fit. */
  spendItems(count: number): void {
    this.check();
    if (this.items + count > this.limits.maxItems) {
      throw this.exhaust("items", `request would work through more than ${this.limits.maxItems} listed items`);
    }
    this.items += count;
  }

  private usable(): boolean {
    if (this.spent) return false;
    if (Date.now() >= this.deadline) {
      this.exhaust("deadline", `request deadline of ${this.limits.deadlineMs} ms passed`);
      return false;
    }
    return true;
  }

  private exhaust(bound: BudgetBound, message: string): RpcBudgetError {
    return (this.spent ??= new RpcBudgetError(bound, message));
  }
}

/**
 * The requests one RPC post is sent for, each with how many of the post's
 * JSON-RPC calls are its own (reads of concurrent requests share batches).
 * Absent or empty: work of the gateway itself (the `.sol` cutoff slot, the
 * tokenized-domain index), bounded by its own rules.
 */
export type PostPayers = ReadonlyMap<RequestBudget, number>;

/**
 * Pays for one attempt of a post (call it again for each retry or failover
 * attempt): every payer that can pays for its calls. Throws when payers were
 * named and none could: nothing may be sent then. Answers whether a payer
 * is traced (request-trace.ts), so the attempt is recorded only then.
 */
export function payForAttempt(payers: PostPayers | undefined): boolean {
  if (!payers || payers.size === 0) return false;
  let paid = false;
  let traced = false;
  let refusal: RpcBudgetError | undefined;
  for (const [budget, calls] of payers) {
    if (budget.tryCalls(calls)) paid = true;
    else refusal ??= budget.exhausted;
    if (budget.trace !== undefined) traced = true;
  }
  if (!paid) throw refusal ?? new RpcBudgetError("calls", "no request can pay for this RPC call");
  return traced;
}

/** Tells the traced payers of a post (request-trace.ts) about one of its attempts. */
export function traceAttempt(payers: PostPayers, url: string, ms: number, outcome: string): void {
  for (const budget of payers.keys()) budget.trace?.attempt(payers, url, ms, outcome);
}

/** Pays for `count` bytes of an answer being read; throws when payers were named and none can. */
export function payForBytes(payers: PostPayers | undefined, count: number): void {
  if (!payers || payers.size === 0) return;
  let paid = false;
  let refusal: RpcBudgetError | undefined;
  for (const budget of payers.keys()) {
    if (budget.tryBytes(count)) paid = true;
    else refusal ??= budget.exhausted;
  }
  if (!paid) throw refusal ?? new RpcBudgetError("bytes", "no request can pay for this RPC answer");
}

/** How long one attempt may take: `timeoutMs`, cut to the latest deadline among its payers. */
export function attemptTimeoutMs(payers: PostPayers | undefined, timeoutMs: number, now = Date.now()): number {
  if (!payers || payers.size === 0) return timeoutMs;
  let latest = 0;
  for (const budget of payers.keys()) latest = Math.max(latest, budget.remainingMs(now));
  return Math.min(timeoutMs, latest);
}

/** Adds `calls` of `budget` to the payers being gathered for one post. */
export function addPayer(payers: Map<RequestBudget, number>, budget: RequestBudget | undefined, calls = 1): void {
  if (budget) payers.set(budget, (payers.get(budget) ?? 0) + calls);
}
