import type { RpcEndpoint } from "../rpc/endpoint.js";
import type { CostAllowance, RequestBudget } from "../rpc/request-budget.js";
import type { RequestTrace } from "../rpc/request-trace.js";
import type { RpcUsage } from "../rpc/request-view.js";
import type { AnswerCacheOutcome } from "../telemetry.js";

/** What a bulk request asked for and got, for its log line (see docs/operations.md, "Request log"). */
export interface BulkTally {
  /** Names in the request, repeats included. */
  readonly names: number;
  /** Names resolved: valid, and each spelling of a name once. */
  readonly distinct: number;
  /** Items by status. */
  readonly items: Readonly<Record<string, number>>;
  /** JSON-RPC calls the request paid for (its budget's count; reads shared with other requests count for each). */
  readonly jsonRpcCalls: number;
}

/** What an answer tells its client of its call-limit window (clients/client-call-limit.ts), names in lower case. */
export interface RateLimitHeaders {
  readonly "ratelimit-limit": string;
  readonly "ratelimit-policy": string;
  readonly "ratelimit-remaining": string;
  readonly "ratelimit-reset": string;
}

/**
 * What one request carries from step to step (Hono's context variables):
 * set by the frame (frame/frame.ts) before the route, read by the route and
 * by the answer pipeline (answer/). The bottom of src/http/: it imports
 * nothing of the parts above it.
 */
export interface AppEnv {
  Variables: {
    /** The RPC endpoint of this request (`rpc` override or RPC_URL); throws when refused. */
    rpc: () => RpcEndpoint;
    /**
     * Set (true) by the frame when the request names an `rpc` override
     * (`rpc=%20` counts, as upstream); absent otherwise. The frame reads the
     * query parameter once: routes ask here.
     */
    viaOverride: true;
    /** The failure this request is answered with (answer/failure.ts, its `Classified`): its code, for the log line. */
    failure: { readonly code: string };
    /** Echoed in `X-Request-Id` and in the request's log lines. */
    requestId: string;
    /** Set once the request has chosen its endpoint. */
    rpcUsage: RpcUsage;
    /** What the request may still cause at its endpoint; set once it has chosen one (request-budget.ts). */
    rpcBudget: RequestBudget;
    /**
     * Set by a route before it asks for its endpoint when one request does
     * the work of several (the bulk routes: one per 100 names): its budget
     * allows that many times the endpoint's JSON-RPC calls.
     */
    budgetCallsScale: number;
    /** The client's allowance of RPC calls (clients/client-call-limit.ts). */
    costAllowance: CostAllowance;
    /** The client the request is counted for, once worked out (clients/client-key.ts). */
    clientKey: string;
    /** Cache-Control of this request's answer if it succeeds (errors: `no-store`); see answer/cache-policy.ts. */
    sharedCacheControl: string;
    /** Set by the bulk routes: what the request's log line reports of its names. */
    bulk: BulkTally;
    /**
     * The `RateLimit-*` headers of the client's window (names in lower case),
     * set by the frame where a call limit counts the request (frame/client-admission.ts):
     * whatever answer the request gets carries them (answer/headers.ts).
     */
    rateLimit: RateLimitHeaders;
    /**
     * Set by a route answering from a cache (the resolve cache): the slot
     * its answer was read at (Infinity: unsaid) and how many whole seconds
     * ago (`Age`); absent, the answer carries the slot of the request's
     * own reads (answer/headers.ts).
     */
    answerSlot: number;
    answerAge: number;
    /** Set by the resolve routes: where their answer came from, for the metrics (answer/finish.ts); absent: `none`. */
    answerCache: AnswerCacheOutcome;
    /**
     * Set by the frame for a request with `trace=1` (and only then): how it
     * was decided, carried on its budget to the layers that record it, and
     * added to its answer's envelope (answer/trace-body.ts).
     */
    trace: RequestTrace;
  };
}
