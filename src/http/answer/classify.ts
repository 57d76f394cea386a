import type { ContentfulStatusCode } from "hono/utils/http-status";
import { RpcEndpointRefusedError, RpcError, RpcNotConfiguredError } from "../../rpc/errors.js";
import { RpcBudgetError } from "../../rpc/request-budget.js";
import { ServiceOverloadedError } from "../../service/bulkhead.js";
import { type SnsErrorCode, SnsError } from "../../sns/errors.js";

export interface ErrorAnswer {
  readonly status: ContentfulStatusCode;
  readonly message: string;
}

export class InvalidInputError extends Error {
  override readonly name = "InvalidInputError";
}

const INVALID_INPUT: ErrorAnswer = { status: 400, message: "Invalid input" };
const MALFORMED: ErrorAnswer = { status: 422, message: "Record is malformed" };
const RPC_UNAVAILABLE: ErrorAnswer = { status: 502, message: "RPC unavailable" };
const INTERNAL: ErrorAnswer = { status: 500, message: "Internal error" };
const TOO_MANY_REQUESTS: ErrorAnswer = { status: 429, message: "Too many requests" };
const OVERLOADED: ErrorAnswer = { status: 503, message: "Service overloaded" };
/** Seconds a refused client is asked to wait: a bulkhead's work drains within an RPC round trip or two. */
export const OVERLOADED_RETRY_AFTER_SECONDS = 1;

/** The one place where a failure becomes an HTTP status and a public message. */
const SNS_ERRORS: Record<SnsErrorCode, ErrorAnswer> = {
  INVALID_INPUT,
  UNSUPPORTED_TLD: { status: 400, message: "Unsupported TLD" },
  DOMAIN_NOT_FOUND: { status: 404, message: "Domain not found" },
  RECORD_NOT_FOUND: { status: 404, message: "Record not found" },
  // Upstream names the missing thing after the route: see `errorAnswer`.
  ACCOUNT_NOT_FOUND: { status: 404, message: "Resource not found" },
  MALFORMED_ACCOUNT: MALFORMED,
  RECORD_MALFORMED: MALFORMED,
  WRONG_VALIDATION: MALFORMED,
  INVALID_ROA: MALFORMED,
  INVALID_RECORD_DATA: MALFORMED,
  SRS_MISMATCH: { status: 409, message: "SRS and SNS resolution mismatch" },
  DOMAIN_EXPIRED: { status: 410, message: "Domain expired" },
  // The official SDK's unmapped failures: the upstream proxy answers 500.
  NFT_OWNER_NOT_FOUND: INTERNAL,
  PDA_OWNER_NOT_ALLOWED: INTERNAL,
  SRS_OWNER_NOT_FOUND: INTERNAL,
};

const ACCOUNT_NOT_FOUND_ON_REVERSE_LOOKUP: ErrorAnswer = { status: 404, message: "Account not found" };

/** `path` picks upstream's wording for a missing account: `Account` on `/reverse-lookup`, `Resource` elsewhere. */
export function errorAnswer(error: unknown, path = ""): ErrorAnswer {
  if (error instanceof SnsError) {
    if (error.code === "ACCOUNT_NOT_FOUND" && path.startsWith("/reverse-lookup/")) return ACCOUNT_NOT_FOUND_ON_REVERSE_LOOKUP;
    return SNS_ERRORS[error.code];
  }
  if (error instanceof InvalidInputError || error instanceof RpcEndpointRefusedError) return INVALID_INPUT;
  if (error instanceof ServiceOverloadedError) return OVERLOADED;
  // A request's own bounds are the RPC side's failure to answer within them; its client's allowance is a rate limit.
  if (error instanceof RpcBudgetError && error.bound === "client") return TOO_MANY_REQUESTS;
  if (error instanceof RpcError) return RPC_UNAVAILABLE;
  if (error instanceof RpcNotConfiguredError) return INTERNAL;
  return INTERNAL;
}

/** Short machine-readable name of a failure, for logs and metrics. */
export function errorCode(error: unknown): string {
  if (error instanceof SnsError) return error.code;
  if (error instanceof RpcBudgetError) return `RPC_BUDGET_${error.bound.toUpperCase()}`;
  if (error instanceof RpcError) return `RPC_${error.kind.toUpperCase().replace("-", "_")}`;
  if (error instanceof Error) return error.name;
  return "UNKNOWN";
}
