import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOptions } from "node:dns";
import { Agent, type Dispatcher } from "undici";
import { isNonPublicAddress } from "../address-policy.js";
import { RpcEndpointRefusedError } from "../errors.js";
import type { RpcTransport, TransportFactory, TransportLimits } from "./contract.js";
import { createDispatchTransport } from "./undici-exchange.js";

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

type AllAddressesLookup = (
  hostname: string,
  options: LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * DNS lookup that refuses non-public answers (address-policy.ts, IPv6 forms
 * carrying an IPv4 included). It runs for every new connection, so a name
 * that later re-resolves to a private address (DNS rebinding) is refused
 * too, before a byte is sent. `resolve`: where answers come from (tests
 * name their own); default: the system's resolver.
 */
export const publicOnlyLookupVia =
  (resolve: AllAddressesLookup) =>
  (hostname: string, options: LookupOptions, callback: LookupCallback): void =>
    resolve(hostname, { ...options, all: true } as LookupAllOptions, (error, addresses) => {
      if (error) return callback(error, []);
      if (addresses.length === 0 || addresses.some((entry) => isNonPublicAddress(entry.address))) {
        return callback(new RpcEndpointRefusedError(`${hostname} resolves to a non-public address`), []);
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });

export const publicOnlyLookup = publicOnlyLookupVia(dnsLookup as AllAddressesLookup);

const KEEP_ALIVE = { keepAliveTimeout: 30_000, keepAliveMaxTimeout: 120_000, connections: 128 };

/** Dispatcher for operator-configured endpoints: trusted, any address. */
export const createTrustedDispatcher = (): Dispatcher => new Agent(KEEP_ALIVE);

/** Dispatcher for request-supplied endpoints: public addresses only (`lookup`: tests name their own answers). */
export const createPublicOnlyDispatcher = (lookup = publicOnlyLookup): Dispatcher =>
  new Agent({ ...KEEP_ALIVE, connections: 16, connect: { lookup } as never });

export interface UndiciTransportOptions extends TransportLimits {
  readonly dispatcher: Dispatcher;
}

export const createUndiciTransport = (url: string, options: UndiciTransportOptions): RpcTransport =>
  createDispatchTransport(url, options, options.dispatcher);

/**
 * Node's transports: keep-alive pools, and for `rpc` overrides a DNS check at
 * connect time (unless ALLOW_PRIVATE_RPC_OVERRIDE lifts the address policy).
 * `interceptor`: sees every request sent (tracing adds `traceparent`); absent: none.
 */
export function createNodeTransports(options: {
  readonly allowPrivate: boolean;
  readonly interceptor?: Dispatcher.DispatcherComposeInterceptor;
}): TransportFactory {
  const trusted = createTrustedDispatcher();
  const publicOnly = options.allowPrivate ? trusted : createPublicOnlyDispatcher();
  const { interceptor } = options;
  const sendTrusted = interceptor ? trusted.compose(interceptor) : trusted;
  const sendPublicOnly = interceptor ? publicOnly.compose(interceptor) : publicOnly;
  return {
    trusted: (url, limits) => createDispatchTransport(url, limits, sendTrusted),
    override: (url, limits) => createDispatchTransport(url, limits, sendPublicOnly),
    async close() {
      await Promise.allSettled([trusted.close(), publicOnly.close()]);
    },
  };
}
