import type { Dispatcher } from "undici";
import type { AnswerLimits } from "../answer-shape.js";
import { type PostPayers, attemptTimeoutMs, payForAttempt, traceAttempt } from "../request-budget.js";
import {
  AnswerReader,
  type RpcTransport,
  type TransportLimits,
  answerLimitsWithin,
  declaredTooLarge,
  defaultAnswerLimits,
  attemptFaultWords,
  exchangeFault,
  httpStatusFault,
} from "./contract.js";

// One RPC exchange straight on an undici dispatcher, with a handler object
// instead of `request()`: no per-request URL parsing, AsyncResource,
// AbortController, body stream or async iterator. Chunks go to the answer
// reader as they arrive, in the parser's own callback. Every limit, fault and
// message is the shared transport's (src/rpc/transport/contract.ts).

const REQUEST_HEADERS = ["content-type", "application/json", "accept", "application/json"];

/** What an error status's body may carry before the connection is dropped instead of drained (undici's `dump` default). */
const DRAIN_LIMIT = 128 * 1024;

/**
 * Request bodies are encoded into shared slabs, each body a fresh slice (a
 * slice is never rewritten, so a write still queued on a socket keeps its
 * bytes). `Buffer.from` would allocate a new ArrayBuffer for every body over
 * 4 KB (a batch of account keys is ~15 KB), and that allocation showed as
 * most of the cost of sending a request.
 */
const SLAB_BYTES = 256 * 1024;
/** Larger bodies (getProgramAccounts filters never come close) get their own buffer. */
const MAX_SLAB_BODY = SLAB_BYTES / 4;
let slab = Buffer.allocUnsafeSlow(0);
let slabUsed = 0;

export function encodeBody(text: string): Buffer {
  const length = Buffer.byteLength(text);
  if (length > MAX_SLAB_BODY) return Buffer.from(text);
  if (slabUsed + length > slab.length) {
    slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
    slabUsed = 0;
  }
  const body = slab.subarray(slabUsed, slabUsed + length);
  body.write(text, 0, length, "utf8");
  slabUsed += (length + 7) & ~7;
  return body;
}

interface Target {
  readonly origin: string;
  readonly path: string;
}

function targetOf(url: string): Target {
  const parsed = new URL(url);
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new TypeError("Invalid URL protocol: the URL must start with `http:` or `https:`.");
  }
  return { origin: parsed.origin, path: parsed.search ? `${parsed.pathname}${parsed.search}` : parsed.pathname };
}

type Headers = Parameters<NonNullable<Dispatcher.DispatchHandler["onResponseStart"]>>[2];

/** The value of header `name` (lower case), the first when it is repeated. */
function headerValue(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The declared Content-Length, when there is one valid declaration (repeated, undici lists its values). */
function declaredLength(headers: Headers): number | undefined {
  const value = headers["content-length"];
  if (typeof value !== "string") return undefined;
  const length = Number(value);
  return Number.isSafeInteger(length) ? length : undefined;
}

/**
 * One exchange as an undici dispatch handler (onRequestStart …
 * onResponseEnd, the handler API of undici 7 and later; undici 8 drops the
 * older onConnect … onComplete one).
 */
class Exchange implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | null = null;
  /** Settled: the caller has its answer or error; what still arrives is drained or dropped. */
  private settled = false;
  private timedOut = false;
  private drained = 0;
  private readonly reader: AnswerReader;
  private readonly timeoutMs: number;
  /** Runs until the exchange ends, draining included: a stalled drain is cut at the deadline too. */
  private readonly timer: ReturnType<typeof setTimeout>;

  private readonly signal: AbortSignal | undefined;
  private readonly onAbort = () => this.onDeadline();

  constructor(
    private readonly limits: AnswerLimits,
    transportLimits: TransportLimits,
    private readonly resolve: (value: unknown) => void,
    private readonly reject: (error: unknown) => void,
    payers: PostPayers | undefined,
    signal?: AbortSignal,
  ) {
    this.reader = new AnswerReader(limits, transportLimits.budget, payers);
    this.timeoutMs = attemptTimeoutMs(payers, transportLimits.timeoutMs);
    this.timer = setTimeout(() => this.onDeadline(), this.timeoutMs);
    // A caller's signal (failover deadline, lost hedge) ends the exchange as the deadline would.
    if (signal) {
      this.signal = signal;
      signal.addEventListener("abort", this.onAbort);
    }
  }

  private stopWatching(): void {
    clearTimeout(this.timer);
    this.signal?.removeEventListener("abort", this.onAbort);
  }

  private abort(reason: Error): void {
    if (this.controller && !this.controller.aborted) this.controller.abort(reason);
  }

  private onDeadline(): void {
    this.timedOut = true;
    const reason = new Error(`no answer within ${this.timeoutMs} ms`);
    if (this.settled) this.abort(reason);
    else this.fail(reason, true);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    // The deadline passed while the request waited for a connection.
    if (this.timedOut) this.abort(new Error(`no answer within ${this.timeoutMs} ms`));
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: Headers): void {
    // Informational answers (1xx) precede the real one.
    if (this.settled || statusCode < 200) return;
    if (statusCode >= 300) {
      // Settled at once; the body is drained so a keep-alive connection stays usable.
      this.settle();
      this.reject(
        httpStatusFault(
          statusCode,
          statusCode === 429 || statusCode === 503 ? headerValue(headers, "retry-after") : undefined,
        ),
      );
      return;
    }
    const length = declaredLength(headers);
    if (length !== undefined && length > this.limits.maxBytes) {
      this.fail(declaredTooLarge(length, this.limits.maxBytes), true);
    }
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.settled) {
      this.drained += chunk.length;
      if (this.drained > DRAIN_LIMIT) this.abort(new Error("drain limit"));
      return;
    }
    try {
      this.reader.push(chunk);
    } catch (error) {
      this.fail(error, true);
    }
  }

  onResponseEnd(): void {
    this.stopWatching();
    if (this.settled) return;
    this.settled = true;
    let answer: unknown;
    try {
      answer = this.reader.parse(); // gives the bytes back too
    } catch (error) {
      this.reject(error);
      return;
    }
    this.resolve(answer);
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.stopWatching();
    if (this.settled) return;
    this.fail(error, false);
  }

  private settle(): void {
    this.settled = true;
    this.reader.release();
  }

  /** Rejects with the typed fault; `drop` also ends the exchange (the connection is not reused). */
  private fail(error: unknown, drop: boolean): void {
    if (this.settled) return;
    this.settle();
    if (drop) {
      this.stopWatching();
      this.abort(error instanceof Error ? error : new Error(String(error)));
    }
    this.reject(exchangeFault(error, this.timedOut, this.timeoutMs));
  }
}

/**
 * An RPC transport on an undici dispatcher; limits and faults as
 * `createTransport`'s. `encode` turns a request body into what undici
 * sends (bench/rpc-exchange.ts compares the choices).
 */
/** `settle`, telling a traced request's trace how the attempt ended and how long it took (request-trace.ts). */
function tracedSettle<T>(payers: PostPayers, url: string, settle: (value: T) => void, ok: boolean): (value: T) => void {
  const sentAt = performance.now();
  return (value) => {
    traceAttempt(payers, url, performance.now() - sentAt, ok ? "ok" : attemptFaultWords(value as Error));
    settle(value);
  };
}

export function createDispatchTransport(
  url: string,
  limits: TransportLimits,
  dispatcher: Dispatcher,
  encode: (body: string) => Buffer | string = encodeBody,
): RpcTransport {
  const { maxResponseBytes } = limits;
  const ceiling = defaultAnswerLimits(maxResponseBytes);
  let target: Target | undefined;
  return {
    url,
    maxResponseBytes,
    post(body, answerLimits = ceiling, signal, payers) {
      return new Promise((resolve, reject) => {
        if (signal?.aborted) {
          reject(exchangeFault(new Error("aborted before sending"), true, limits.timeoutMs));
          return;
        }
        let traced: boolean;
        try {
          target ??= targetOf(url);
          traced = payForAttempt(payers);
        } catch (error) {
          reject(exchangeFault(error, false, limits.timeoutMs));
          return;
        }
        const exchange = new Exchange(
          answerLimitsWithin(answerLimits, maxResponseBytes),
          limits,
          traced ? tracedSettle(payers!, url, resolve, true) : resolve,
          traced ? tracedSettle(payers!, url, reject, false) : reject,
          payers,
          signal,
        );
        dispatcher.dispatch(
          { origin: target.origin, path: target.path, method: "POST", headers: REQUEST_HEADERS, body: encode(body) },
          exchange,
        );
      });
    },
  };
}
