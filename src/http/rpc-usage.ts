import type { RpcEndpoint } from "../rpc/endpoint.js";

/** What one request asked its RPC endpoint for (see README, "Request log"). */
export interface RpcUsage {
  /** Reads asked for: each getAccounts, token-holder, program-account, signature or transaction read counts one. */
  calls: number;
  /** Account keys asked for through getAccounts. */
  accounts: number;
}

/**
 * The endpoint as one request sees it: the same endpoint (its batching,
 * coalescing and caches are shared), with this request's reads counted.
 * It inherits everything else from the endpoint, so `url` and the private
 * state the endpoint's own methods use are the shared ones.
 */
export function countingView(endpoint: RpcEndpoint, usage: RpcUsage): RpcEndpoint {
  const view = Object.create(endpoint) as RpcEndpoint;
  view.getAccounts = (keys) => {
    usage.calls++;
    usage.accounts += keys.length;
    return endpoint.getAccounts(keys);
  };
  view.getTokenLargestAccounts = (mint) => {
    usage.calls++;
    return endpoint.getTokenLargestAccounts(mint);
  };
  view.getProgramAccounts = (program, query) => {
    usage.calls++;
    return endpoint.getProgramAccounts(program, query);
  };
  view.getSignaturesForAddress = (address, options) => {
    usage.calls++;
    return endpoint.getSignaturesForAddress(address, options);
  };
  view.getTransactionAccounts = (signature, commitment) => {
    usage.calls++;
    return endpoint.getTransactionAccounts(signature, commitment);
  };
  return view;
}
