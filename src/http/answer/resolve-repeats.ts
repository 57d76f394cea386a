import type { Context } from "hono";
import { matchedRoutes } from "hono/route";
import { LRUCache } from "lru-cache";
import type { Logger } from "../../logger.js";
import type { EndpointSelector } from "../../rpc/endpoints.js";
import type { Outcome } from "../../service/answer-cache.js";
import type { Resolver } from "../../service/resolver.js";
import type { FullDomain } from "../../sns/domain.js";
import { NO_TELEMETRY, type Telemetry } from "../../telemetry.js";
import type { ClientCallLimit } from "../clients/client-call-limit.js";
import type { AppEnv } from "../env.js";
import { UNMATCHED_ANSWERS, answersOf } from "../openapi/route-answers.js";
import { requestIdFor } from "./request-id.js";
import { cacheControlFor } from "./cache-control.js";
import type { Classified } from "./classify.js";
import { okText } from "./envelope.js";
import { renderFailure } from "./failure.js";
import { answerHeaders } from "./headers.js";
import { type AnswerSinks, recordAnswer } from "./finish.js";
import { routePatternOf } from "./request-log.js";
import {
  type Admission,
  type BeforeAppAnswer,
  type LearnedRequest,
  beforeAppLine,
  resolveLearned,
} from "./resolve-miss.js";
import type { YieldToLoop } from "../../rpc/request-view.js";
import { utf8Length } from "./utf8-length.js";

/** What the resolve route learned of a request, for its repeats; with the last outcome answered, rendered. */
interface KnownRequest extends LearnedRequest {
  /** The last outcome answered, rendered: repeats mostly answer the same cache entry. */
  rendered?: RenderedOutcome;
}

interface RenderedOutcome {
  readonly outcome: Outcome;
  readonly status: number;
  readonly body: string;
  readonly length: number;
  readonly cacheControl: string;
  /** Headers a failure adds (Retry-After). */
  readonly extra: Readonly<Record<string, string>> | undefined;
  /** The failure the request's log line names. */
  readonly failure: Classified | undefined;
}

export type RepeatAnswer = BeforeAppAnswer;

export interface ResolveRepeatsOptions {
  readonly resolver: Resolver;
  readonly endpoints: EndpointSelector;
  readonly logger: Logger;
  readonly telemetry?: Telemetry;
  /**
   * The key a repeat of this request will be recognised by before any
   * routing (on Node: its Host and raw target), or undefined when its answer
   * may depend on more than the path: another method than GET, a query.
   */
  keyOf(c: Context<AppEnv>): string | undefined;
  /** The app's limit of `RPC_URL` calls per client (RPC_RATE_LIMIT), whose headers a repeat carries too; absent: off. */
  readonly callLimit?: ClientCallLimit;
  /** Lets the event loop serve others between slices of a request's work, as the app's frame does. */
  readonly yieldToLoop: YieldToLoop;
}

/** Requests remembered: keys are client-chosen, so the bound is on bytes too. */
const KNOWN_BOUND: LRUCache.Options<string, KnownRequest, unknown> = {
  max: 10_000,
  maxSize: 4 * 1024 * 1024,
  sizeCalculation: (known, key) => key.length + 2 * known.domain.name.length + 256,
};

/**
 * Answers a repeated `/resolve` request before the request reaches the app:
 * no routing, no input schemas, no request frame, no Hono context. Most of
 * what a cache hit cost was that path around it; a request that waits for
 * its reads holds less while it waits.
 *
 * Only requests the route has already answered are recognised, by the exact
 * key it learned them under (`learn`), so the path was validated by the
 * app's own schemas, and the request had no query (no `rpc` override, no
 * `trace`). `respond` gives outcomes the resolver holds as they are
 * (`Resolver.cachedEntry`), and resolves the name now, as the route would
 * (resolve-miss.ts), for everything else. An answer here has the
 * status, body and headers the app gives for the same outcome (its slot and
 * `Age` too), and is counted and logged as the app counts and logs it. Left
 * to the app: a client whose `RPC_URL` calls are spent (its 429), and a
 * route answering failures with a fixed answer.
 */
export class ResolveRepeats {
  private readonly known = new LRUCache<string, KnownRequest>(KNOWN_BOUND);
  private readonly sinks: AnswerSinks;

  constructor(private readonly options: ResolveRepeatsOptions) {
    this.sinks = { logger: options.logger, telemetry: options.telemetry ?? NO_TELEMETRY };
  }

  /** Remembers a request whose path the resolve route validated as `domain`. */
  learn(c: Context<AppEnv>, domain: FullDomain): void {
    const key = this.options.keyOf(c);
    if (key === undefined || this.known.has(key)) return;
    const route = routePatternOf(c);
    const answers = answersOf(matchedHandler(c)) ?? UNMATCHED_ANSWERS;
    this.known.set(key, { domain, route, answers, policy: c.get("sharedCacheControl") });
  }

  /**
   * The answer to a request recognised by `key`, with its request id (from
   * `requestIdHeader`, the `X-Request-Id` the request carries), counted and
   * logged: from the resolve cache (`answer`), else resolved now
   * (resolve-miss.ts); undefined when the app must answer it.
   */
  respond(
    key: string,
    requestIdHeader: string | undefined,
    client: () => string,
  ): RepeatAnswer | Promise<RepeatAnswer> | undefined {
    const known = this.known.get(key);
    if (!known) return undefined;
    const admission = this.admit(client);
    if (admission === SPENT) return undefined;
    return this.fromCache(known, requestIdHeader, admission) ?? this.resolveKnown(known, requestIdHeader, admission);
  }

  /** `respond` from the resolve cache only: undefined when it does not hold the request's outcome as it is. */
  answer(key: string, requestIdHeader: string | undefined, client: () => string): RepeatAnswer | undefined {
    const known = this.known.get(key);
    if (!known) return undefined;
    const admission = this.admit(client);
    return admission === SPENT ? undefined : this.fromCache(known, requestIdHeader, admission);
  }

  /**
   * The client's window, as the app's frame admits it: undefined without RPC_RATE_LIMIT, SPENT once
   * the client has no calls left (the app answers its 429, and no cache lookup is counted for it).
   */
  private admit(client: () => string): Admission | undefined | typeof SPENT {
    const { callLimit } = this.options;
    if (!callLimit) return undefined;
    return callLimit.admit(client()) ?? SPENT;
  }

  private fromCache(
    known: KnownRequest,
    requestIdHeader: string | undefined,
    admission: Admission | undefined,
  ): RepeatAnswer | undefined {
    const started = performance.now();
    const { resolver } = this.options;
    if (!resolver.cachesAnswers) return undefined;
    const entry = resolver.cachedEntry(this.options.endpoints.select(undefined), known.domain);
    if (!entry) return undefined;
    const outcome = entry.outcome;
    const rendered = known.rendered?.outcome === outcome ? known.rendered : (known.rendered = render(outcome, known));
    const requestId = requestIdFor(requestIdHeader);
    const { cacheControl, extra } = rendered;
    const slot = entry.slot === Infinity ? undefined : entry.slot;
    const age = resolver.ageSeconds(entry);
    const headers: Record<string, string | number> = answerHeaders(
      cacheControl,
      requestId,
      JSON_TYPE,
      extra,
      admission?.headers,
      slot,
      age,
    );
    headers["Content-Length"] = rendered.length;
    const seconds = (performance.now() - started) / 1000;
    const line = beforeAppLine(requestId, known.route, rendered.status, seconds, NOTHING_READ, rendered.failure?.code);
    // Counted as started only now, with nothing left to fail before it is recorded: a throw above leaves
    // the request to the app, which counts it once.
    this.sinks.telemetry.httpRequestStarted();
    recordAnswer(this.sinks, line, seconds, "hit", age);
    return { status: rendered.status, headers, body: rendered.body };
  }

  /** A known request resolved now (resolve-miss.ts); undefined for a route whose failures have a fixed answer. */
  private resolveKnown(
    known: KnownRequest,
    requestIdHeader: string | undefined,
    admission: Admission | undefined,
  ): RepeatAnswer | Promise<RepeatAnswer> | undefined {
    if (known.answers.fixedFailure !== undefined) return undefined;
    const deps = {
      resolver: this.options.resolver,
      endpoint: this.options.endpoints.select(undefined),
      yieldToLoop: this.options.yieldToLoop,
      sinks: this.sinks,
    };
    return resolveLearned(deps, known, requestIdFor(requestIdHeader), admission);
  }
}

/** An outcome as the app answers it, by the pipeline's own rendering: the envelope, and answer/failure.ts for failures. */
function render(outcome: Outcome, known: KnownRequest): RenderedOutcome {
  if (outcome.ok) return rendered(outcome, known, 200, okText(outcome.key), undefined, undefined);
  const { failure, body, headers } = renderFailure(outcome.error, known.answers);
  return rendered(outcome, known, failure.status, body, headers, failure);
}

function rendered(
  outcome: Outcome,
  known: KnownRequest,
  status: number,
  body: string,
  extra: Readonly<Record<string, string>> | undefined,
  failure: Classified | undefined,
): RenderedOutcome {
  const cacheControl = cacheControlFor(known.policy, status);
  return { outcome, status, body, length: utf8Length(body), cacheControl, extra, failure };
}

/** The handler Hono matched for this request (the last one: middleware aside, routes do not overlap). */
function matchedHandler(c: Context<AppEnv>): object {
  const matched = matchedRoutes(c);
  return matched[matched.length - 1]!.handler;
}

/** A client with no calls left: the app answers it. */
const SPENT = Symbol("spent");

/** A repeat answered from the cache reads nothing. */
const NOTHING_READ = { calls: 0, accounts: 0 } as const;

const JSON_TYPE = "application/json";
