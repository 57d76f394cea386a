import { type AnswerLimits, AnswerShapeGuard } from "../answer-shape.js";
import type { ByteBudget } from "../byte-budget.js";
import { HttpStatusError, OverloadedError, RpcEndpointRefusedError, RpcFailure, parseRetryAfter } from "../errors.js";
import { type PostPayers, attemptTimeoutMs, payForAttempt, payForBytes, traceAttempt } from "../request-budget.js";

/** Posts one JSON body to an RPC endpoint and returns the parsed JSON answer. */
export interface RpcTransport {
  readonly url: string;
  readonly maxResponseBytes: number;
  /**
   * `limits` bound the answer's size and structure before it is parsed;
   * `signal` ends the exchange early (a failover deadline, a hedge that lost):
   * it then fails as a timeout. `payers`: the request budgets the post is
   * for (request-budget.ts); each attempt pays for its calls before it is
   * sent, and for the answer's bytes as they arrive, and takes no longer
   * than the latest payer's deadline. A transport over several endpoints
   * passes them on to each attempt, so retries and failovers are paid too.
   */
  post(body: string, limits?: AnswerLimits, signal?: AbortSignal, payers?: PostPayers): Promise<unknown>;
}

export interface TransportLimits {
  readonly timeoutMs: number;
  /** Ceiling for one answer whatever the request; `post` callers may ask for less. */
  readonly maxResponseBytes: number;
  /** Bytes of answers this endpoint may hold at once (shared with its pool and the process). */
  readonly budget: ByteBudget;
}

/**
 * How a platform reaches RPC endpoints. Node uses undici with a connect-time
 * DNS check for overrides; Workers use `fetch`, where only the static URL
 * rules apply.
 */
export interface TransportFactory {
  /** To the operator's `RPC_URL`: any address. */
  trusted(url: string, limits: TransportLimits): RpcTransport;
  /** To a request-supplied endpoint: refuses non-public addresses where the platform can see them. */
  override(url: string, limits: TransportLimits): RpcTransport;
  /** Releases connections; called after the HTTP server has drained. */
  close(): Promise<void>;
}

/** The raw HTTP answer a platform's client hands over. */
export interface RawAnswer {
  readonly status: number;
  /** Declared Content-Length, when there is a valid one. */
  readonly contentLength: number | undefined;
  /** The `Retry-After` header, when the answer has one. */
  readonly retryAfter?: string | null;
  readonly body: AsyncIterable<Uint8Array>;
  /** Drops the rest of the body (so a connection can be reused or closed). */
  discard(): Promise<void>;
}

/** Sends one POST; `signal` aborts it (timeout or an oversized answer). */
export type PostRequest = (url: string, body: string, signal: AbortSignal) => Promise<RawAnswer>;

function refusalIn(error: unknown): RpcEndpointRefusedError | null {
  for (let cause = error, depth = 0; cause && depth < 5; depth++) {
    if (cause instanceof RpcEndpointRefusedError) return cause;
    cause = (cause as { cause?: unknown }).cause;
  }
  return null;
}

/**
 * The typed error for a failed exchange, whatever the HTTP client threw:
 * typed errors pass through, a refusal is found in the cause chain, and the
 * rest is a timeout when the deadline had passed and a network failure
 * otherwise.
 */
export function exchangeFault(
  error: unknown,
  timedOut: boolean,
  timeoutMs: number,
): RpcFailure | RpcEndpointRefusedError | OverloadedError {
  if (error instanceof RpcFailure || error instanceof OverloadedError) return error;
  const refusal = refusalIn(error);
  if (refusal) return refusal;
  if (timedOut) return new RpcFailure("timeout", `no RPC answer within ${timeoutMs} ms`, { cause: error });
  return new RpcFailure("network", `RPC request failed: ${(error as Error)?.message ?? error}`, { cause: error });
}

/** A non-2xx answer; its `Retry-After` is read for a 429 or 503 only, as HttpStatusError (errors.ts) means it. */
export const httpStatusFault = (status: number, retryAfter?: string | null) =>
  new HttpStatusError(status, status === 429 || status === 503 ? parseRetryAfter(retryAfter) : undefined);

export const declaredTooLarge = (length: number, maxBytes: number) =>
  new RpcFailure("too-large", `RPC answer of ${length} bytes exceeds ${maxBytes}`);

const overBudget = () => new OverloadedError("RPC answers in flight exceed the memory budget");

function concat(chunks: readonly Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const joined = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk, offset);
    offset += chunk.length;
  }
  return joined;
}

const utf8 = new TextDecoder();

/**
 * Collects an answer's bytes within its limits and parses them. Bytes count
 * against the budget from the first chunk until parsing is done (or
 * `release`): the raw text and the parsed value are what a burst of large
 * answers would pile up.
 */
export class AnswerReader {
  private readonly guard: AnswerShapeGuard;
  private readonly chunks: Uint8Array[] = [];
  private held = 0;

  constructor(
    limits: AnswerLimits,
    private readonly budget: ByteBudget,
    private readonly payers?: PostPayers,
  ) {
    this.guard = new AnswerShapeGuard(limits);
  }

  /** Throws a typed error once the answer outgrows its limits, the memory budget or its payers' budgets. */
  push(chunk: Uint8Array): void {
    this.guard.feed(chunk);
    payForBytes(this.payers, chunk.length);
    if (!this.budget.tryTake(chunk.length)) throw overBudget();
    this.held += chunk.length;
    this.chunks.push(chunk);
  }

  /** Parses what was pushed and gives the bytes back to the budget. */
  parse(): unknown {
    try {
      const text = utf8.decode(concat(this.chunks, this.held));
      this.chunks.length = 0;
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new RpcFailure("invalid-response", "RPC answer is not JSON");
      }
    } finally {
      this.release();
    }
  }

  /** Gives the bytes held back to the budget (the answer is dropped). */
  release(): void {
    this.chunks.length = 0;
    this.budget.release(this.held);
    this.held = 0;
  }
}

async function readJson(
  body: AsyncIterable<Uint8Array>,
  limits: AnswerLimits,
  budget: ByteBudget,
  payers: PostPayers | undefined,
): Promise<unknown> {
  const reader = new AnswerReader(limits, budget, payers);
  try {
    for await (const chunk of body) reader.push(chunk);
    return reader.parse();
  } finally {
    reader.release();
  }
}

/** What a trace says of a failed attempt: the fault's kind, never its message (it may quote a URL). */
export function attemptFaultWords(fault: Error): string {
  if (fault instanceof HttpStatusError) return `HTTP ${fault.status}`;
  if (fault instanceof RpcFailure) return fault.kind;
  if (fault instanceof RpcEndpointRefusedError) return "refused: the host resolves to a non-public address";
  return "overloaded";
}

/** The answer limits of one post: what the caller asked, never above the transport's ceiling. */
export const answerLimitsWithin = (asked: AnswerLimits, maxResponseBytes: number): AnswerLimits =>
  asked.maxBytes > maxResponseBytes ? { ...asked, maxBytes: maxResponseBytes } : asked;

/** The limits of a post that asks for none: the transport's byte ceiling, generous structure limits. */
export const defaultAnswerLimits = (maxResponseBytes: number): AnswerLimits => ({
  maxBytes: maxResponseBytes,
  maxTokens: 1_000_000,
  maxDepth: 16,
});

/**
 * A transport over any HTTP client: the timeout, the status check, the
 * declared and streamed size limits, the answer-shape guard and the byte
 * budget are the same on every platform.
 */
export function createTransport(url: string, limits: TransportLimits, send: PostRequest): RpcTransport {
  const { timeoutMs, maxResponseBytes, budget } = limits;
  const ceiling = defaultAnswerLimits(maxResponseBytes);
  return {
    url,
    maxResponseBytes,
    async post(body, answerLimits = ceiling, signal, payers) {
      const effective = answerLimitsWithin(answerLimits, maxResponseBytes);
      const traced = payForAttempt(payers);
      const sentAt = traced ? performance.now() : 0;
      const attemptMs = attemptTimeoutMs(payers, timeoutMs);
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), attemptMs);
      const stop = () => controller.abort();
      signal?.addEventListener("abort", stop);
      if (signal?.aborted) controller.abort();
      try {
        const answer = await send(url, body, controller.signal);
        if (answer.status < 200 || answer.status >= 300) {
          await answer.discard().catch(() => undefined);
          throw httpStatusFault(answer.status, answer.retryAfter);
        }
        const length = answer.contentLength;
        if (length !== undefined && length > effective.maxBytes) {
          controller.abort();
          throw declaredTooLarge(length, effective.maxBytes);
        }
        const parsed = await readJson(answer.body, effective, budget, payers);
        if (traced) traceAttempt(payers!, url, performance.now() - sentAt, "ok");
        return parsed;
      } catch (error) {
        const fault = exchangeFault(error, controller.signal.aborted, attemptMs);
        if (traced) traceAttempt(payers!, url, performance.now() - sentAt, attemptFaultWords(fault));
        throw fault;
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener("abort", stop);
      }
    },
  };
}
