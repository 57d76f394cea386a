/**
 * Every way an RPC exchange can fail, as typed values. The HTTP layer maps
 * all of them to 502, except a client's spent override allowance, 429
 * (src/http/answer/classify.ts); the original cause is kept for logs only.
 */
export type RpcFailureKind =
  | "jsonrpc" // the node answered with a JSON-RPC error object
  | "http-status" // non-2xx HTTP status (redirects included: they are not followed)
  | "invalid-response" // not JSON, not JSON-RPC, or a result of the wrong shape
  | "network" // refused, reset, DNS failure, TLS failure
  | "timeout" // no complete answer within the deadline
  | "too-large" // answer over its size or structure limits
  | "budget"; // the requests it was for reached a bound of their budget (request-budget.ts): not sent, or cut

export class RpcFailure extends Error {
  override readonly name = "RpcFailure";
  constructor(
    readonly kind: RpcFailureKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Longest piece of an RPC-supplied text kept in an error (and so in a log line). */
export const MAX_QUOTED_CHARS = 200;

/**
 * A bounded, printable excerpt of what a remote server said. Error texts
 * come from whichever endpoint a request named, so they are never kept
 * whole: a 12 MB message must not reach the log or stay in memory.
 */
export function quote(value: unknown): string {
  let text: string;
  if (typeof value === "string") text = value.slice(0, MAX_QUOTED_CHARS + 1);
  else if (typeof value === "number" || typeof value === "boolean" || value === null) text = String(value);
  else if (Array.isArray(value)) text = `[array of ${value.length}]`;
  else if (typeof value === "object") text = "[object]";
  else text = typeof value;
  text = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, " ");
  return text.length > MAX_QUOTED_CHARS ? `${text.slice(0, MAX_QUOTED_CHARS)}…` : text;
}

/** Longest `Retry-After` honoured: a provider cannot bench an endpoint for longer than this. */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * A `Retry-After` value (delay-seconds or an HTTP date) in milliseconds from
 * `now`, capped; undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  const ms = /^\d+$/.test(text) ? Number(text) * 1000 : Date.parse(text) - now;
  if (!Number.isFinite(ms)) return undefined;
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}

/** A non-2xx HTTP answer: its status, and how long a 429 or 503 asked the client to wait. */
export class HttpStatusError extends RpcFailure {
  constructor(
    readonly status: number,
    readonly retryAfterMs: number | undefined,
  ) {
    super("http-status", `RPC answered HTTP ${status}`);
  }
}

export class JsonRpcError extends RpcFailure {
  /** An excerpt of the error's `data`, if it had one. */
  readonly data: string | undefined;
  /**
   * `data.contextSlot` when the node said which slot it has (a -32016 refusal
   * does): only ever used to lower a slot the gateway asks for, never to raise one.
   */
  readonly contextSlot: number | undefined;

  constructor(
    readonly code: number,
    message: unknown,
    data?: unknown,
  ) {
    super("jsonrpc", `JSON-RPC error ${code}: ${quote(message ?? "")}`);
    this.data = data === undefined ? undefined : quote(data);
    const slot = (data as { contextSlot?: unknown } | null | undefined)?.contextSlot;
    this.contextSlot = typeof slot === "number" && Number.isSafeInteger(slot) && slot >= 0 ? slot : undefined;
  }
}

/**
 * The gateway has no room for this work now: answers in flight already fill
 * their memory budget, or a queue is at its bound. Refused at once instead of
 * queued; nothing is known to be wrong with the RPC endpoint, so it is not an
 * RpcFailure (no failover, no endpoint fault). Answered 503 `Service
 * overloaded` with `Retry-After` (src/http/answer/classify.ts).
 */
export class OverloadedError extends Error {
  override readonly name = "OverloadedError";
}

/** The `rpc` override points somewhere the policy forbids; nothing was sent. */
export class RpcEndpointRefusedError extends Error {
  override readonly name = "RpcEndpointRefusedError";
}

/** Neither `RPC_URL` nor an `rpc` parameter names an endpoint. */
export class RpcNotConfiguredError extends Error {
  override readonly name = "RpcNotConfiguredError";
  constructor() {
    super("RPC_URL is not configured");
  }
}

export const INVALID_PARAMS = -32602;

/** "Minimum context slot has not been reached": the node is behind the `minContextSlot` the read asked. */
export const MIN_CONTEXT_SLOT_NOT_REACHED = -32016;

/** A node's refusal of a read's `minContextSlot`, as the JSON-RPC error it answered. */
export const isMinContextSlotRefusal = (error: unknown): error is JsonRpcError =>
  error instanceof JsonRpcError && error.code === MIN_CONTEXT_SLOT_NOT_REACHED;
