/**
 * What the gateway reports about its own work, as plain method calls. The
 * app, the RPC layer and the resolver call these without knowing where the
 * numbers go: Node exports them as Prometheus metrics
 * (src/platform/node/metrics.ts), other platforms may pass NO_TELEMETRY.
 *
 * Every label value passed here comes from a small fixed set (route
 * patterns, HTTP methods the app knows, JSON-RPC methods the gateway sends,
 * failure kinds), never from request text, so series stay bounded.
 */
export interface Telemetry {
  /** An HTTP request entered the app. */
  httpRequestStarted(): void;
  /** `route`: the matched route pattern or UNMATCHED_ROUTE; `method`: see httpMethodLabel. */
  httpRequestFinished(route: string, method: string, status: number, seconds: number): void;
  /** One HTTP request to an RPC node is about to be sent. */
  rpcRequestStarted(): void;
  rpcRequestFinished(endpoint: RpcEndpointLabel, outcome: RpcRequestOutcome, seconds: number): void;
  /** One JSON-RPC call (alone or inside a batch array) got its answer or failed. */
  rpcCall(method: string, outcome: RpcCallOutcome): void;
  /** Calls sent in one RPC HTTP request (1 for a single call). */
  rpcBatchSent(calls: number): void;
  /** Account keys in one getMultipleAccounts call. */
  accountsBatched(keys: number): void;
  /** A batch reply's reads are being settled over several turns of the event loop (RPC_SETTLE_SLICE). */
  rpcReplyPaced(): void;
  /** Account keys and calls waiting for a free RPC slot went up or down by `delta`. */
  rpcQueueChanged(delta: number): void;
  /** A request shared work already under way instead of starting its own. */
  coalesced(kind: CoalescedKind): void;
  /**
   * A lookup in the resolve response cache (only when RESOLVE_CACHE_TTL_MS > 0),
   * or a refresh of a hit entry started ahead of its expiry.
   */
  resolveCache(result: "hit" | "miss" | "refresh"): void;
  /**
   * An answer was given (every answer, inside the app or before it), by
   * where it came from: `hit` the resolve cache, `refreshed` the resolve
   * cache while a refresh ahead of expiry started, `coalesced` a resolution
   * another request started, `miss` a resolution of its own, `none` no
   * resolution (every other answer). `ageSeconds`: for one served from the
   * resolve cache, how old it was (the `Age` it carried).
   */
  answerServed(cache: AnswerCacheOutcome, ageSeconds: number | undefined): void;
  /** A bulk request (`route`: its pattern) was answered, with `names` names (repeats included). */
  bulkResolved(route: string, names: number): void;
  /**
   * One endpoint of a several-URL `RPC_URL` (labelled by host, see
   * src/rpc/failover/host-label.ts): a read sent to it, a read that left it
   * for the next endpoint, or a hedge sent to it.
   */
  rpcEndpointEvent(endpoint: string, event: "request" | "failover" | "hedge"): void;
  /** A fault of one endpoint of a several-URL `RPC_URL`, by kind. */
  rpcEndpointFault(endpoint: string, kind: string): void;
  /** The circuit of one endpoint of a several-URL `RPC_URL` changed state. */
  rpcEndpointCircuit(endpoint: string, state: EndpointCircuitState): void;
  /** The tokenized index changed state (src/service/tokenized-index.ts). */
  tokenizedIndexState(state: TokenizedIndexState): void;
  /** A `/domains` request found its tokenized domains by scanning, because the index could not answer it. */
  tokenizedIndexFallback(reason: TokenizedIndexFallback): void;
  /** The tokenized index refused a slot past its elapsed-time bound, or dropped a floor no endpoint reached (src/rpc/slot-bound.ts). */
  tokenizedIndexSlot(event: TokenizedIndexSlotEvent): void;
}

/** idle: not built yet; building: a (re)build is under way; ready: answering; failed, over_budget: `/domains` scans. */
export type TokenizedIndexState = "idle" | "building" | "ready" | "failed" | "over_budget";
/** Why a request scanned: the index's state then, or `slow`: it was not ready within the request's wait. */
export type TokenizedIndexFallback = "building" | "failed" | "over_budget" | "slow";

/** claim_refused: a slot from an answer past what the time elapsed allows; floor_dropped: a floor no endpoint reached in time. */
export type TokenizedIndexSlotEvent = "claim_refused" | "floor_dropped";

/** Closed: in rotation; open: out of rotation for a pause; half_open: one read is probing it. */
export type EndpointCircuitState = "closed" | "open" | "half_open";

/** `RPC_URL` or a request's `rpc` override; the URL itself is never a label (it may carry a key). */
export type RpcEndpointLabel = "rpc_url" | "override";

/** How one RPC HTTP request ended, as seen by the transport. */
export type RpcRequestOutcome =
  "ok" | "http_status" | "invalid_response" | "network" | "timeout" | "too_large" | "overloaded" | "budget" | "refused";

/** How one JSON-RPC call ended: answered, answered with an error object, failed in transport, or timed out. */
export type RpcCallOutcome = "ok" | "rpc_error" | "transport_fault" | "timeout";

export type CoalescedKind = "resolution" | "account";

/** Where an answer came from, for the metrics (Telemetry.answerServed). */
export type AnswerCacheOutcome = "hit" | "miss" | "coalesced" | "refreshed" | "none";

/** Route label of requests no route matched (404, 405, preflights): one label, never the raw path. */
export const UNMATCHED_ROUTE = "unmatched";

const KNOWN_METHODS = new Set(["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"]);

/** Clients may send any method token; anything unusual is counted as one label. */
export const httpMethodLabel = (method: string): string => (KNOWN_METHODS.has(method) ? method : "OTHER");

const nothing = () => undefined;

export const NO_TELEMETRY: Telemetry = {
  httpRequestStarted: nothing,
  httpRequestFinished: nothing,
  rpcRequestStarted: nothing,
  rpcRequestFinished: nothing,
  rpcCall: nothing,
  rpcBatchSent: nothing,
  accountsBatched: nothing,
  rpcReplyPaced: nothing,
  rpcQueueChanged: nothing,
  coalesced: nothing,
  resolveCache: nothing,
  answerServed: nothing,
  bulkResolved: nothing,
  rpcEndpointEvent: nothing,
  rpcEndpointFault: nothing,
  rpcEndpointCircuit: nothing,
  tokenizedIndexState: nothing,
  tokenizedIndexFallback: nothing,
  tokenizedIndexSlot: nothing,
};

/** Renders the current metrics for `GET /metrics`; only platforms that keep metrics provide one. */
export interface MetricsExporter {
  readonly contentType: string;
  render(): Promise<string>;
}
