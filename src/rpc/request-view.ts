import type { RpcEndpoint } from "./endpoint.js";
import type { RequestBudget } from "./request-budget.js";

/** What one request asked its RPC endpoint for (see docs/operations.md, "Request log"). */
export interface RpcUsage {
  /** Reads asked for: each getAccounts (or readAccountHeads), token-holder, program-account, signature, transaction, blockhash or rent read counts one. */
  calls: number;
  /** Account keys asked for through getAccounts and readAccountHeads. */
  accounts: number;
}

/** Lets the event loop serve other requests; resolves on a later turn (Node: after the I/O that arrived). */
export type YieldToLoop = () => Promise<void>;

/** Longest a request works through an RPC-supplied list before it lets the event loop serve others. */
export const WORK_SLICE_MS = 4;

/** A request's view: the endpoint's prototype chain, with this request's tally, budget and work clock as own fields. */
interface RequestView extends RpcEndpoint {
  usage: RpcUsage;
  budget: RequestBudget;
  yieldToLoop: YieldToLoop;
  /** `performance.now()` when the request last let the loop run (or started working through a list). */
  sliceStarted: number;
}

/**
 * Per endpoint, the prototype of its request views: the counted methods,
 * defined once and reading the tally and budget from the view, so a request
 * costs one object and no closures.
 */
const viewPrototypes = new WeakMap<RpcEndpoint, RpcEndpoint>();

function viewPrototypeOf(endpoint: RpcEndpoint): RpcEndpoint {
  let prototype = viewPrototypes.get(endpoint);
  if (prototype) return prototype;
  const view = Object.create(endpoint) as RpcEndpoint;
  view.getAccounts = function (this: RequestView, keys) {
    this.usage.calls++;
    this.usage.accounts += keys.length;
    return endpoint.getAccounts(keys, this.budget);
  };
  view.readAccountHeads = function (this: RequestView, keys, heads) {
    this.usage.calls++;
    this.usage.accounts += keys.length;
    return endpoint.readAccountHeads(keys, heads, this.budget);
  };
  view.getTokenLargestAccounts = function (this: RequestView, mint) {
    this.usage.calls++;
    return endpoint.getTokenLargestAccounts(mint, this.budget);
  };
  view.getProgramAccounts = function (this: RequestView, program, query) {
    this.usage.calls++;
    return endpoint.getProgramAccounts(program, query, this.budget);
  };
  view.getSignaturesForAddress = function (this: RequestView, address, options) {
    this.usage.calls++;
    return endpoint.getSignaturesForAddress(address, options, this.budget);
  };
  view.getTransactionAccounts = function (this: RequestView, signature, commitment) {
    this.usage.calls++;
    return endpoint.getTransactionAccounts(signature, commitment, this.budget);
  };
  view.getLatestBlockhash = function (this: RequestView) {
    this.usage.calls++;
    return endpoint.getLatestBlockhash(this.budget);
  };
  view.getMinimumBalanceForRentExemption = function (this: RequestView, bytes) {
    this.usage.calls++;
    return endpoint.getMinimumBalanceForRentExemption(bytes, this.budget);
  };
  // Work over RPC-supplied lists (ChainReader.pace): a list is paid from the budget's items
  // before it is worked through, and every WORK_SLICE_MS the event loop gets a turn, after
  // which the deadline is checked.
  view.pace = function (this: RequestView, items) {
    if (items > 0) this.budget.spendItems(items);
    if (performance.now() - this.sliceStarted < WORK_SLICE_MS) return undefined;
    return this.yieldToLoop().then(() => {
      this.sliceStarted = performance.now();
      this.budget.check();
    });
  };
  viewPrototypes.set(endpoint, (prototype = view));
  return prototype;
}

/**
 * The endpoint as one request sees it: the same endpoint (its batching,
 * coalescing and caches are shared), with this request's reads counted and
 * paid from its budget, and its work over RPC-supplied lists paced. It
 * inherits everything else from the endpoint, so `url` and the private state
 * the endpoint's own methods use are the shared ones.
 */
export function requestView(
  endpoint: RpcEndpoint,
  usage: RpcUsage,
  budget: RequestBudget,
  yieldToLoop: YieldToLoop,
): RpcEndpoint {
  const view = Object.create(viewPrototypeOf(endpoint)) as RequestView;
  view.usage = usage;
  view.budget = budget;
  view.yieldToLoop = yieldToLoop;
  view.sliceStarted = performance.now();
  return view;
}
