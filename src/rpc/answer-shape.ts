import { RpcFailure } from "./errors.js";

/**
 * What one JSON-RPC answer may look like before it is parsed. `JSON.parse`
 * of a few megabytes of `[[],[],…]` builds millions of objects and can
 * exhaust the heap, so the raw bytes are checked while they stream in and
 * the exchange is dropped as soon as a limit is passed.
 */
export interface AnswerLimits {
  readonly maxBytes: number;
  /** Containers opened plus separators: a bound on the values JSON.parse would create. */
  readonly maxTokens: number;
  readonly maxDepth: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/** Incremental scan of a JSON text's structure; `feed` throws once the answer outgrows its limits. */
export class AnswerShapeGuard {
  private bytes = 0;
  private tokens = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Next backslash in the current chunk (-1: none), searched once per position passed. */
  private backslashAt = -1;

  constructor(private readonly limits: AnswerLimits) {}

  feed(chunk: Uint8Array): void {
    this.bytes += chunk.length;
    if (this.bytes > this.limits.maxBytes) {
      throw new RpcFailure("too-large", `RPC answer exceeds ${this.limits.maxBytes} bytes`);
    }
    let i = 0;
    const end = chunk.length;
    this.backslashAt = chunk.indexOf(BACKSLASH);
    while (i < end) {
      if (this.inString) {
        i = this.skipString(chunk, i);
        continue;
      }
      const byte = chunk[i++]!;
      if (byte === QUOTE) this.inString = true;
      else if (byte === COMMA) this.countToken();
      else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
        this.countToken();
        if (++this.depth > this.limits.maxDepth) {
          throw new RpcFailure("too-large", `RPC answer nests deeper than ${this.limits.maxDepth}`);
        }
      } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) this.depth--;
    }
  }

  /** Jumps over string content (base64 account data is most of an answer) with native searches. */
  private skipString(chunk: Uint8Array, from: number): number {
    let i = from;
    if (this.escaped) {
      this.escaped = false;
      i++;
    }
    while (i < chunk.length) {
      const quote = chunk.indexOf(QUOTE, i);
      if (this.backslashAt !== -1 && this.backslashAt < i) this.backslashAt = chunk.indexOf(BACKSLASH, i);
      const backslash = this.backslashAt;
      if (backslash !== -1 && (quote === -1 || backslash < quote)) {
        if (backslash + 1 >= chunk.length) {
          this.escaped = true;
          return chunk.length;
        }
        i = backslash + 2;
        continue;
      }
      if (quote === -1) return chunk.length;
      this.inString = false;
      return quote + 1;
    }
    return i;
  }

  private countToken(): void {
    if (++this.tokens > this.limits.maxTokens) {
      throw new RpcFailure("too-large", `RPC answer has more than ${this.limits.maxTokens} JSON values`);
    }
  }
}

/** Shapes of the answers this gateway asks for, sized from the request. */
export interface AnswerSizing {
  /** Encoded bytes allowed per account in a getMultipleAccounts answer. */
  readonly bytesPerAccount: number;
  /** Hard ceiling for any single answer. */
  readonly maxAnswerBytes: number;
}

/** Envelope, context and a small error object; every answer may have these. */
const BASE_BYTES = 8 * 1024;
const BASE_TOKENS = 64;
/** An account object: data pair, executable, lamports, owner, rentEpoch, space. */
const TOKENS_PER_ACCOUNT = 16;
/** getTokenLargestAccounts returns at most 20 entries of five fields; getSlot a number. */
const SMALL_CALL_BYTES = 16 * 1024;
const SMALL_CALL_TOKENS = 20 * 8;
const PROGRAM_ACCOUNTS_BYTES_PER_TOKEN = 12;
/** 200 signatures of ~250 bytes, or one transaction with its logs: well under this. */
const LISTING_BYTES = 256 * 1024;
/** Envelope → result → value → account → data: six levels in a batch; room for error data. */
const MAX_DEPTH = 16;

export interface CallShape {
  readonly method: string;
  readonly params: readonly unknown[];
}

/** The limits for the answer to `calls` (one call or a batch array). */
export function limitsFor(calls: readonly CallShape[], sizing: AnswerSizing): AnswerLimits {
  let bytes = BASE_BYTES;
  let tokens = BASE_TOKENS;
  for (const call of calls) {
    if (call.method === "getProgramAccounts") {
      // The account count is not known in advance: the whole answer ceiling,
      // with a token density well above a real answer's (one per ~20 bytes).
      bytes += sizing.maxAnswerBytes;
      tokens += Math.ceil(sizing.maxAnswerBytes / PROGRAM_ACCOUNTS_BYTES_PER_TOKEN);
    } else if (call.method === "getSignaturesForAddress" || call.method === "getTransaction") {
      bytes += LISTING_BYTES;
      tokens += Math.ceil(LISTING_BYTES / PROGRAM_ACCOUNTS_BYTES_PER_TOKEN);
    } else if (call.method === "getMultipleAccounts") {
      const keys = Array.isArray(call.params[0]) ? call.params[0].length : 0;
      bytes += BASE_BYTES + keys * sizing.bytesPerAccount;
      tokens += BASE_TOKENS + keys * TOKENS_PER_ACCOUNT;
    } else {
      bytes += SMALL_CALL_BYTES;
      tokens += BASE_TOKENS + SMALL_CALL_TOKENS;
    }
  }
  return { maxBytes: Math.min(bytes, sizing.maxAnswerBytes), maxTokens: tokens, maxDepth: MAX_DEPTH };
}
