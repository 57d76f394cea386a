import type { Dispatcher } from "undici";
import type { AccountLoaderOptions } from "../src/rpc/account-loader.js";
import { ByteBudget } from "../src/rpc/byte-budget.js";
import { RpcEndpoint } from "../src/rpc/endpoint.js";
import { createUndiciTransport } from "../src/rpc/transport/undici.js";

/** The batching of the gateway's loader, with a 1 ms window: what tests of one endpoint start from. */
export const TEST_LOADER: AccountLoaderOptions = {
  commitment: "confirmed",
  maxKeysPerCall: 100,
  maxCallsPerRequest: 20,
  maxInFlight: 4,
  windowMs: 1,
  maxQueuedKeys: 1000,
};

/** An endpoint at `url` (a localnet, or a test's own server) over `dispatcher`, its loader TEST_LOADER with `loader`'s changes. */
export function testEndpoint(
  url: string,
  dispatcher: Dispatcher,
  loader: Partial<AccountLoaderOptions> = {},
): RpcEndpoint {
  const transport = createUndiciTransport(url, {
    dispatcher,
    timeoutMs: 5000,
    maxResponseBytes: 1 << 24,
    budget: new ByteBudget(1 << 26),
  });
  return new RpcEndpoint(transport, { ...TEST_LOADER, ...loader });
}
