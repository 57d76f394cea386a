import type { RpcEndpoint } from "../../rpc/endpoint.js";

/** What one request asked its RPC endpoint for (see README, "Request log"). */
export interface RpcUsage {
  /** Reads asked for: each getAccounts, token-holder, program-account, signature, transaction, blockhash or rent read counts one. */
  calls: number;
  /** Account keys asked for through getAccounts. */
  accounts: number;
}

/** A counting view: the endpoint's prototype chain, with this request's tally as an own field. */
interface CountingView extends RpcEndpoint {
  usage: RpcUsage;
}

/**
 * Per endpoint, the prototype of its counting views: the counted methods,
 * defined once and reading the tally from the view, so a request costs one
 * object and no closures.
 */
const countingPrototypes = new WeakMap<RpcEndpoint, RpcEndpoint>();

function countingPrototypeOf(endpoint: RpcEndpoint): RpcEndpoint {
  let prototype = countingPrototypes.get(endpoint);
  if (prototype) return prototype;
  const counting = Object.create(endpoint) as RpcEndpoint;
  counting.getAccounts = function (this: CountingView, keys) {
    this.usage.calls++;
    this.usage.accounts += keys.length;
    return endpoint.getAccounts(keys);
  };
  counting.getTokenLargestAccounts = function (this: CountingView, mint) {
    this.usage.calls++;
    return endpoint.getTokenLargestAccounts(mint);
  };
  counting.getProgramAccounts = function (this: CountingView, program, query) {
    this.usage.calls++;
    return endpoint.getProgramAccounts(program, query);
  };
  counting.getSignaturesForAddress = function (this: CountingView, address, options) {
    this.usage.calls++;
    return endpoint.getSignaturesForAddress(address, options);
  };
  counting.getTransactionAccounts = function (this: CountingView, signature, commitment) {
    this.usage.calls++;
    return endpoint.getTransactionAccounts(signature, commitment);
  };
  counting.getLatestBlockhash = function (this: CountingView) {
    this.usage.calls++;
    return endpoint.getLatestBlockhash();
  };
  counting.getMinimumBalanceForRentExemption = function (this: CountingView, bytes) {
    this.usage.calls++;
    return endpoint.getMinimumBalanceForRentExemption(bytes);
  };
  countingPrototypes.set(endpoint, (prototype = counting));
  return prototype;
}

/**
 * The endpoint as one request sees it: the same endpoint (its batching,
 * coalescing and caches are shared), with this request's reads counted.
 * It inherits everything else from the endpoint, so `url` and the private
 * state the endpoint's own methods use are the shared ones.
 */
export function countingView(endpoint: RpcEndpoint, usage: RpcUsage): RpcEndpoint {
  const view = Object.create(countingPrototypeOf(endpoint)) as CountingView;
  view.usage = usage;
  return view;
}
