import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOptions } from "node:dns";
import { Agent, type Dispatcher, request } from "undici";
import { isNonPublicAddress } from "./address-policy.js";
import { type AnswerLimits, AnswerShapeGuard } from "./answer-shape.js";
import type { ByteBudget } from "./byte-budget.js";
import { RpcEndpointRefusedError, RpcError } from "./errors.js";

export interface TransportOptions {
  readonly timeoutMs: number;
  /** Ceiling for one answer whatever the request; `post` callers may ask for less. */
  readonly maxResponseBytes: number;
  readonly dispatcher: Dispatcher;
  /** Bytes of answers this endpoint may hold at once (shared with its pool and the process). */
  readonly budget: ByteBudget;
}

/** Posts one JSON body to an RPC endpoint and returns the parsed JSON answer. */
export interface RpcTransport {
  readonly url: string;
  readonly maxResponseBytes: number;
  /** `limits` bound the answer's size and structure before it is parsed. */
  post(body: string, limits?: AnswerLimits): Promise<unknown>;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * DNS lookup that refuses non-public answers. It runs for every new
 * connection, so a name that later re-resolves to a private address
 * (DNS rebinding) is refused too, before a byte is sent.
 */
export function publicOnlyLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true } as LookupAllOptions, (error, addresses) => {
    if (error) return callback(error, []);
    if (addresses.length === 0 || addresses.some((entry) => isNonPublicAddress(entry.address))) {
      return callback(new RpcEndpointRefusedError(`${hostname} resolves to a non-public address`), []);
    }
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}

const KEEP_ALIVE = { keepAliveTimeout: 30_000, keepAliveMaxTimeout: 120_000, connections: 128 };

/** Dispatcher for operator-configured endpoints: trusted, any address. */
export const createTrustedDispatcher = (): Dispatcher => new Agent(KEEP_ALIVE);

/** Dispatcher for request-supplied endpoints: public addresses only. */
export const createPublicOnlyDispatcher = (): Dispatcher =>
  new Agent({ ...KEEP_ALIVE, connections: 16, connect: { lookup: publicOnlyLookup } as never });

function refusalIn(error: unknown): RpcEndpointRefusedError | null {
  for (let cause = error, depth = 0; cause && depth < 5; depth++) {
    if (cause instanceof RpcEndpointRefusedError) return cause;
    cause = (cause as { cause?: unknown }).cause;
  }
  return null;
}

const overBudget = () => new RpcError("overloaded", "RPC answers in flight exceed the memory budget");

/**
 * Reads and parses an answer within its limits. Bytes count against the
 * budget from the first chunk until parsing is done: the raw text and the
 * parsed value are what a burst of large answers would pile up.
 */
async function readJson(body: AsyncIterable<Buffer>, limits: AnswerLimits, budget: ByteBudget): Promise<unknown> {
  const guard = new AnswerShapeGuard(limits);
  const chunks: Buffer[] = [];
  let held = 0;
  try {
    for await (const chunk of body) {
      guard.feed(chunk);
      if (!budget.tryTake(chunk.length)) throw overBudget();
      held += chunk.length;
      chunks.push(chunk);
    }
    const text = Buffer.concat(chunks, held).toString("utf8");
    chunks.length = 0;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new RpcError("invalid-response", "RPC answer is not JSON");
    }
  } finally {
    budget.release(held);
  }
}

function declaredLength(headers: Record<string, string | string[] | undefined>): number | undefined {
  const value = headers["content-length"];
  const length = typeof value === "string" ? Number(value) : NaN;
  return Number.isSafeInteger(length) ? length : undefined;
}

export function createHttpTransport(url: string, options: TransportOptions): RpcTransport {
  const { timeoutMs, maxResponseBytes, dispatcher, budget } = options;
  const ceiling: AnswerLimits = { maxBytes: maxResponseBytes, maxTokens: 1_000_000, maxDepth: 16 };
  return {
    url,
    maxResponseBytes,
    async post(body, limits = ceiling) {
      const effective = limits.maxBytes > maxResponseBytes ? { ...limits, maxBytes: maxResponseBytes } : limits;
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), timeoutMs);
      try {
        const response = await request(url, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json" },
          body,
          dispatcher,
          signal: controller.signal,
        });
        if (response.statusCode < 200 || response.statusCode >= 300) {
          await response.body.dump().catch(() => undefined);
          throw new RpcError("http-status", `RPC answered HTTP ${response.statusCode}`);
        }
        const length = declaredLength(response.headers);
        if (length !== undefined && length > effective.maxBytes) {
          controller.abort();
          throw new RpcError("too-large", `RPC answer of ${length} bytes exceeds ${effective.maxBytes}`);
        }
        return await readJson(response.body, effective, budget);
      } catch (error) {
        if (error instanceof RpcError) throw error;
        const refusal = refusalIn(error);
        if (refusal) throw refusal;
        if (controller.signal.aborted) throw new RpcError("timeout", `no RPC answer within ${timeoutMs} ms`, { cause: error });
        throw new RpcError("network", `RPC request failed: ${(error as Error)?.message ?? error}`, { cause: error });
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
