/**
 * Typed protocol errors. `code` is what the HTTP layer maps to a status; the
 * message is for logs only and never reaches a response body.
 */
export type SnsErrorCode =
  | "INVALID_INPUT"
  | "UNSUPPORTED_TLD"
  | "DOMAIN_NOT_FOUND"
  | "ACCOUNT_NOT_FOUND"
  | "RECORD_NOT_FOUND"
  /** On-chain bytes that cannot be decoded with the documented layout. */
  | "MALFORMED_ACCOUNT"
  /** A V2 SOL record whose content is not 32 bytes. */
  | "RECORD_MALFORMED"
  | "WRONG_VALIDATION"
  | "INVALID_ROA"
  | "INVALID_RECORD_DATA"
  | "NFT_OWNER_NOT_FOUND"
  | "PDA_OWNER_NOT_ALLOWED"
  /** A token-owned SRS record whose mint, unique holder or holder account cannot be established. */
  | "SRS_OWNER_NOT_FOUND"
  | "SRS_MISMATCH"
  | "DOMAIN_EXPIRED";

/**
 * An answer about chain state or input, not a fault of the program: most
 * are as common as successes (a missing domain, a stale record), so they are
 * built without capturing a stack trace, which costs more than the rest of
 * a resolution's decoding.
 */
export class SnsError extends Error {
  override readonly name = "SnsError";
  constructor(
    readonly code: SnsErrorCode,
    message: string = code,
  ) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
  }
}

export const isSnsError = (error: unknown): error is SnsError => error instanceof SnsError;
