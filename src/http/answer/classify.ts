import type { ContentfulStatusCode } from "hono/utils/http-status";
import { OverloadedError, RpcEndpointRefusedError, RpcError } from "../../rpc/errors.js";
import { RpcBudgetError } from "../../rpc/request-budget.js";
import { type SnsErrorCode, SnsError } from "../../sns/errors.js";

/** What a failure is answered with: the one place where a failure becomes a status, a message and a code. */
export interface Classified {
  readonly status: ContentfulStatusCode;
  /** The public message: the envelope's `result`. Internals never appear here; they are logged. */
  readonly message: string;
  /** Short machine-readable name of the failure, for the request's log line. */
  readonly code: string;
  /**
   * A failure of the gateway or of its RPC, logged in full (stack and cause)
   * as a warning. False for answers about chain state or input (an SnsError,
   * a refused override, a bad parameter), whose request line already says it.
   */
  readonly logged: boolean;
  /** Seconds a client should wait before asking again (`Retry-After`); absent: no such header. */
  readonly retryAfterSeconds?: number;
  /** The connection is closed after the answer (`Connection: close`): a refused request body is left unread. */
  readonly closesConnection?: true;
}

/**
 * A route's own wording for a failure, where upstream names the missing
 * thing after the route (`/reverse-lookup` says `Account not found` where
 * the others say `Resource not found`). Declared with the route (see
 * DocumentedRoute.wording).
 */
export type RouteWording = Readonly<Partial<Record<SnsErrorCode, string>>>;

/** A parameter or body that fails its schema, or an `rpc` value too long to consider. */
export class InvalidInputError extends Error {
  override readonly name = "InvalidInputError";
}

/** A request body over the route's limit (413). */
export class BodyTooLargeError extends Error {
  override readonly name = "BodyTooLargeError";
}

/**
 * A request body that stopped arriving: its client closed the connection,
 * or the platform gave up waiting for it (Node's request timeout, answered
 * 408 by the listener). Not a failure of the gateway: answered (to nobody)
 * and counted as 499, nginx's "client closed request".
 */
export class ClientClosedError extends Error {
  override readonly name = "ClientClosedError";
}

/**
 * No room for a request whose body is not read (the bulk routes' line of
 * bodies being received is full, or a newer request took its place there):
 * 503 `Service overloaded`, and the connection is closed, the body left unread.
 */
export class UnreadBodyOverloadedError extends Error {
  override readonly name = "UnreadBodyOverloadedError";
}

/** Seconds an overloaded gateway asks clients to wait: answers in flight and queues drain within an RPC round trip or two. */
export const OVERLOADED_RETRY_AFTER_SECONDS = 1;

const chainAnswer = (status: ContentfulStatusCode, message: string, code: string): Classified => ({
  status,
  message,
  code,
  logged: false,
});

const MALFORMED = (code: SnsErrorCode) => chainAnswer(422, "Record is malformed", code);

/** SnsErrors: answers about chain state or input. */
const SNS_ERRORS: Record<SnsErrorCode, Classified> = {
  INVALID_INPUT: chainAnswer(400, "Invalid input", "INVALID_INPUT"),
  UNSUPPORTED_TLD: chainAnswer(400, "Unsupported TLD", "UNSUPPORTED_TLD"),
  DOMAIN_NOT_FOUND: chainAnswer(404, "Domain not found", "DOMAIN_NOT_FOUND"),
  RECORD_NOT_FOUND: chainAnswer(404, "Record not found", "RECORD_NOT_FOUND"),
  // Upstream names the missing thing after the route: see RouteWording.
  ACCOUNT_NOT_FOUND: chainAnswer(404, "Resource not found", "ACCOUNT_NOT_FOUND"),
  MALFORMED_ACCOUNT: MALFORMED("MALFORMED_ACCOUNT"),
  RECORD_MALFORMED: MALFORMED("RECORD_MALFORMED"),
  WRONG_VALIDATION: MALFORMED("WRONG_VALIDATION"),
  INVALID_ROA: MALFORMED("INVALID_ROA"),
  INVALID_RECORD_DATA: MALFORMED("INVALID_RECORD_DATA"),
  SRS_MISMATCH: chainAnswer(409, "SRS and SNS resolution mismatch", "SRS_MISMATCH"),
  DOMAIN_EXPIRED: chainAnswer(410, "Domain expired", "DOMAIN_EXPIRED"),
  // The official SDK's unmapped failures: the upstream proxy answers 500.
  NFT_OWNER_NOT_FOUND: chainAnswer(500, "Internal error", "NFT_OWNER_NOT_FOUND"),
  PDA_OWNER_NOT_ALLOWED: chainAnswer(500, "Internal error", "PDA_OWNER_NOT_ALLOWED"),
  SRS_OWNER_NOT_FOUND: chainAnswer(500, "Internal error", "SRS_OWNER_NOT_FOUND"),
};

const rpcUnavailable = new Map<string, Classified>();

/** Every RpcError kind is 502: the endpoint failed, timed out or answered out of bounds. */
function rpcFailure(error: RpcError): Classified {
  let classified = rpcUnavailable.get(error.kind);
  if (!classified) {
    const code = `RPC_${error.kind.toUpperCase().replace("-", "_")}`;
    rpcUnavailable.set(error.kind, (classified = { status: 502, message: "RPC unavailable", code, logged: true }));
  }
  return classified;
}

const budgetFailures = new Map<string, Classified>();

/**
 * A request's own bounds (deadline, calls, bytes) are the RPC side's failure
 * to answer within them: 502; its client's allowance is a rate limit: 429.
 */
function budgetFailure(error: RpcBudgetError): Classified {
  let classified = budgetFailures.get(error.bound);
  if (!classified) {
    const code = `RPC_BUDGET_${error.bound.toUpperCase()}`;
    classified =
      error.bound === "client"
        ? { status: 429, message: "Too many requests", code, logged: false }
        : { status: 502, message: "RPC unavailable", code, logged: true };
    budgetFailures.set(error.bound, classified);
  }
  return classified;
}

const OVERLOADED: Classified = {
  status: 503,
  message: "Service overloaded",
  code: "OVERLOADED",
  logged: true,
  retryAfterSeconds: OVERLOADED_RETRY_AFTER_SECONDS,
};

/** The status nginx logs for a request whose client closed the connection before it was answered. */
export const CLIENT_CLOSED_STATUS = 499;

const CLIENT_CLOSED: Classified = {
  status: CLIENT_CLOSED_STATUS as ContentfulStatusCode,
  message: "Client closed request",
  code: "CLIENT_CLOSED",
  logged: false,
  closesConnection: true,
};

/**
 * Logged by its request line only: a crowd of connections that never send
 * their bodies would otherwise write a warning with a stack for each.
 */
const OVERLOADED_UNREAD_BODY: Classified = { ...OVERLOADED, logged: false, closesConnection: true };

const refusedOrInvalid = (code: string): Classified => chainAnswer(400, "Invalid input", code);
const INVALID_INPUT_ERROR = refusedOrInvalid("InvalidInputError");
const BODY_TOO_LARGE: Classified = {
  ...chainAnswer(413, "Request body too large", "BodyTooLargeError"),
  closesConnection: true,
};
const RPC_REFUSED = refusedOrInvalid("RpcEndpointRefusedError");

/**
 * How the gateway answers `error` on a route with `wording`: every failure,
 * thrown by a route, by the frame before it, or kept in the resolve cache,
 * goes through here. Anything not recognised (a missing RPC_URL, a bug) is
 * 500 `Internal error`, logged in full.
 */
export function classify(error: unknown, wording?: RouteWording): Classified {
  if (error instanceof SnsError) {
    const classified = SNS_ERRORS[error.code];
    const worded = wording?.[error.code];
    return worded === undefined ? classified : { ...classified, message: worded };
  }
  if (error instanceof InvalidInputError) return INVALID_INPUT_ERROR;
  if (error instanceof BodyTooLargeError) return BODY_TOO_LARGE;
  if (error instanceof RpcEndpointRefusedError) return RPC_REFUSED;
  if (error instanceof ClientClosedError) return CLIENT_CLOSED;
  if (error instanceof UnreadBodyOverloadedError) return OVERLOADED_UNREAD_BODY;
  if (error instanceof OverloadedError) return OVERLOADED;
  if (error instanceof RpcBudgetError) return budgetFailure(error);
  if (error instanceof RpcError) return rpcFailure(error);
  return {
    status: 500,
    message: "Internal error",
    code: error instanceof Error ? error.name : "UNKNOWN",
    logged: true,
  };
}
