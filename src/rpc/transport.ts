import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOptions } from "node:dns";
import { Agent, type Dispatcher, request } from "undici";
import { isNonPublicAddress } from "./address-policy.js";
import { RpcEndpointRefusedError, RpcError } from "./errors.js";

export interface TransportOptions {
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly dispatcher: Dispatcher;
}

/** Posts one JSON body to an RPC endpoint and returns the parsed JSON answer. */
export interface RpcTransport {
  readonly url: string;
  post(body: string): Promise<unknown>;
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

async function readLimited(body: AsyncIterable<Buffer>, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += chunk.length;
    if (total > maxBytes) throw new RpcError("too-large", `RPC response exceeds ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total).toString("utf8");
}

export function createHttpTransport(url: string, options: TransportOptions): RpcTransport {
  const { timeoutMs, maxResponseBytes, dispatcher } = options;
  return {
    url,
    async post(body) {
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
        const text = await readLimited(response.body, maxResponseBytes);
        try {
          return JSON.parse(text) as unknown;
        } catch {
          throw new RpcError("invalid-response", "RPC answer is not JSON");
        }
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
