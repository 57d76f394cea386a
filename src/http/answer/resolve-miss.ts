import type { Address } from "@solana/kit";
import type { Logger, RequestLine } from "../../logger.js";
import type { RpcEndpoint } from "../../rpc/endpoint.js";
import { RequestBudget } from "../../rpc/request-budget.js";
import { type YieldToLoop, requestView } from "../../rpc/request-view.js";
import type { CacheEntry } from "../../service/answer-cache.js";
import type { Resolver } from "../../service/resolver.js";
import type { FullDomain } from "../../sns/domain.js";
import type { AnswerCacheOutcome } from "../../telemetry.js";
import type { ClientAdmission } from "../clients/client-call-limit.js";
import type { RouteAnswers } from "../openapi/route-answers.js";
import { boundedPolicy, cacheControlFor } from "./cache-control.js";
import { classify } from "./classify.js";
import { errorText, failureHeaders, okText } from "./envelope.js";
import { type AnswerSinks, lineMs, recordAnswer } from "./finish.js";
import { answerHeaders } from "./headers.js";
import { utf8Length } from "./utf8-length.js";

/** What the resolve route learned of a request it validated (resolve-repeats.ts). */
export interface LearnedRequest {
  readonly domain: FullDomain;
  /** The route pattern, for the metrics and the log line. */
  readonly route: string;
  /** What the route declares about its answers (its wording of failures). */
  readonly answers: RouteAnswers;
  /** The Cache-Control a success earns (cache-policy.ts). */
  readonly policy: string;
}

/** An answer given before the app: its status, every header, its body. */
export interface BeforeAppAnswer {
  readonly status: number;
  readonly headers: Record<string, string | number>;
  readonly body: string;
}

/** What resolving a learned request needs of the gateway. */
export interface MissDeps {
  readonly resolver: Resolver;
  readonly endpoint: RpcEndpoint;
  readonly yieldToLoop: YieldToLoop;
  readonly sinks: AnswerSinks;
}

/** The client's window of `RPC_URL` calls (RPC_RATE_LIMIT), as the app's frame admits it; absent: no limit. */
export type Admission = ClientAdmission;

/** Where an answer came from, as the route tells it (routes/resolve.ts: `servedFromCache`, `resolvedLater`). */
interface Provenance {
  readonly cache: AnswerCacheOutcome;
  readonly slot: number;
  readonly age: number | undefined;
}

/**
 * A learned `/resolve` request that the resolve cache cannot answer as it
 * is (no cache, a miss, a refresh due, a `.sol` cutoff to read), resolved
 * before the app: what the app's frame and the resolve route would do for
 * it, step for step — the request's budget on `RPC_URL` (drawing on the
 * client's window when RPC_RATE_LIMIT counts it), the resolver's per-name
 * entry point, the answer's provenance (slot, `Age`, cache outcome), the
 * envelope, the Cache-Control a success earns (bounded by an SRS record's
 * lifetime), the failure's classification, its warning when it is a
 * failure of the gateway or its RPC, the log line and the metrics. None of
 * Hono's context, routing or request objects is made: while a request waits
 * for its reads, what it holds is what the garbage collector copies at
 * each young-generation collection.
 */
export function resolveLearned(
  deps: MissDeps,
  learned: LearnedRequest,
  requestId: string,
  admission: Admission | undefined,
): BeforeAppAnswer | Promise<BeforeAppAnswer> {
  const started = performance.now();
  const { resolver, endpoint: shared, sinks } = deps;
  const usage = { calls: 0, accounts: 0 };
  const budget = new RequestBudget(shared.budgetLimits, admission?.window);
  sinks.telemetry.httpRequestStarted();
  // Counted as started: from here on every way out is an answer (a failure of its own is a 500, as the
  // frame answers a route's), never a hand-back to the app, which would resolve and count it again.
  const finish = (answer: () => Answered): BeforeAppAnswer => {
    let answered: Answered;
    try {
      answered = answer();
    } catch (error) {
      answered = failed(sinks.logger, learned, requestId, error, undefined);
    }
    return finishAnswer(sinks, learned, requestId, admission, usage, budget, started, answered);
  };

  let endpoint: RpcEndpoint;
  let key: Address | Promise<Address>;
  try {
    endpoint = requestView(shared, usage, budget, deps.yieldToLoop);
    key = resolver.resolve(endpoint, learned.domain);
  } catch (error) {
    // A failure given at once may be a cached one (a missing domain, a malformed record).
    return finish(() => failed(sinks.logger, learned, requestId, error, fromCache(resolver)));
  }
  if (typeof key === "string") return finish(() => succeeded(resolver, endpoint, learned, key, fromCache(resolver)));
  return key.then(
    (resolved) =>
      finish(() => succeeded(resolver, endpoint, learned, resolved, resolvedLater(resolver, budget, usage))),
    (error: unknown) =>
      finish(() => failed(sinks.logger, learned, requestId, error, resolvedLater(resolver, budget, usage))),
  );
}

/** An outcome rendered, before its headers. */
interface Answered {
  readonly status: number;
  readonly body: string;
  readonly cacheControl: string;
  readonly extra: Readonly<Record<string, string>> | undefined;
  readonly errorCode: string | undefined;
  readonly provenance: Provenance | undefined;
}

/** An answer given at once came from the resolve cache: its entry's slot and `Age`. */
function fromCache(resolver: Resolver): Provenance | undefined {
  const hit: CacheEntry | undefined = resolver.lastHit;
  if (hit === undefined) return undefined;
  return { cache: resolver.lastHitRefreshing ? "refreshed" : "hit", slot: hit.slot, age: resolver.ageSeconds(hit) };
}

/** An answer given later: resolved by this request, shared with another's, or from a cache entry behind an await. */
function resolvedLater(resolver: Resolver, budget: RequestBudget, usage: { readonly calls: number }): Provenance {
  if (budget.cachedReadAt !== Infinity) {
    return {
      cache: usage.calls ? "miss" : "hit",
      slot: Math.min(budget.cachedSlot, budget.lowestSlot),
      age: resolver.ageSeconds({ readAt: budget.cachedReadAt }),
    };
  }
  return { cache: usage.calls ? "miss" : "coalesced", slot: budget.lowestSlot, age: undefined };
}

function succeeded(
  resolver: Resolver,
  endpoint: RpcEndpoint,
  learned: LearnedRequest,
  key: Address,
  provenance: Provenance | undefined,
): Answered {
  // Shared no longer than the SRS record it was read from stays unexpired.
  const lifetimeMs = resolver.answerLifetime(endpoint, learned.domain);
  const policy = lifetimeMs === Infinity ? learned.policy : boundedPolicy(learned.policy, lifetimeMs);
  return {
    status: 200,
    body: okText(key),
    cacheControl: cacheControlFor(policy, 200),
    extra: undefined,
    errorCode: undefined,
    provenance,
  };
}

function failed(
  logger: Logger,
  learned: LearnedRequest,
  requestId: string,
  error: unknown,
  provenance: Provenance | undefined,
): Answered {
  const failure = classify(error, learned.answers.wording);
  if (failure.logged) logger.warn({ reqId: requestId, route: learned.route, err: error }, "request failed");
  return {
    status: failure.status,
    body: errorText(failure.message),
    cacheControl: cacheControlFor(learned.policy, failure.status),
    extra: failureHeaders(failure),
    errorCode: failure.code,
    provenance,
  };
}

function finishAnswer(
  sinks: AnswerSinks,
  learned: LearnedRequest,
  requestId: string,
  admission: Admission | undefined,
  usage: { readonly calls: number; readonly accounts: number },
  budget: RequestBudget,
  started: number,
  answer: Answered,
): BeforeAppAnswer {
  const { provenance } = answer;
  const slot = provenance?.slot ?? budget.lowestSlot;
  const headers: Record<string, string | number> = answerHeaders(
    answer.cacheControl,
    requestId,
    JSON_TYPE,
    answer.extra,
    admission?.headers,
    slot === Infinity ? undefined : slot,
    provenance?.age,
  );
  headers["Content-Length"] = utf8Length(answer.body);
  const seconds = (performance.now() - started) / 1000;
  const line = beforeAppLine(requestId, learned.route, answer.status, seconds, usage, answer.errorCode);
  recordAnswer(sinks, line, seconds, provenance?.cache, provenance?.age);
  return { status: answer.status, headers, body: answer.body };
}

/** The log line of a `GET` answered before the app (`usage`: what it read), as the app's frame writes it. */
export function beforeAppLine(
  requestId: string,
  route: string,
  status: number,
  seconds: number,
  usage: { readonly calls: number; readonly accounts: number },
  errorCode: string | undefined,
): RequestLine {
  const line: RequestLine = {
    reqId: requestId,
    method: "GET",
    route,
    status,
    ms: lineMs(seconds),
    rpcCalls: usage.calls,
    rpcAccounts: usage.accounts,
    rpcOverride: false,
  };
  if (errorCode !== undefined) line.error = errorCode;
  return line;
}

const JSON_TYPE = "application/json";
