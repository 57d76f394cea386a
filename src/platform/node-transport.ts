import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOptions } from "node:dns";
import { Agent, type Dispatcher, request } from "undici";
import { isNonPublicAddress } from "../rpc/address-policy.js";
import { RpcEndpointRefusedError } from "../rpc/errors.js";
import { type PostRequest, type RpcTransport, type TransportFactory, type TransportLimits, createTransport } from "../rpc/transport.js";

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

function declaredLength(headers: Record<string, string | string[] | undefined>): number | undefined {
  const value = headers["content-length"];
  const length = typeof value === "string" ? Number(value) : NaN;
  return Number.isSafeInteger(length) ? length : undefined;
}

/** POST through an undici dispatcher: several times faster than Node's own fetch here. */
export const undiciPost =
  (dispatcher: Dispatcher): PostRequest =>
  async (url, body, signal) => {
    const response = await request(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body,
      dispatcher,
      signal,
    });
    return {
      status: response.statusCode,
      contentLength: declaredLength(response.headers),
      body: response.body,
      discard: () => response.body.dump(),
    };
  };

export interface UndiciTransportOptions extends TransportLimits {
  readonly dispatcher: Dispatcher;
}

export const createUndiciTransport = (url: string, options: UndiciTransportOptions): RpcTransport =>
  createTransport(url, options, undiciPost(options.dispatcher));

/**
 * Node's transports: keep-alive pools, and for `rpc` overrides a DNS check at
 * connect time (unless ALLOW_PRIVATE_RPC_OVERRIDE lifts the address policy).
 */
export function createNodeTransports(options: { readonly allowPrivate: boolean }): TransportFactory {
  const trusted = createTrustedDispatcher();
  const publicOnly = options.allowPrivate ? trusted : createPublicOnlyDispatcher();
  const trustedPost = undiciPost(trusted);
  const overridePost = undiciPost(publicOnly);
  return {
    trusted: (url, limits) => createTransport(url, limits, trustedPost),
    override: (url, limits) => createTransport(url, limits, overridePost),
    async close() {
      await Promise.allSettled([trusted.close(), publicOnly.close()]);
    },
  };
}
