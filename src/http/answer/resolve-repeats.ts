import type { Context } from "hono";
import { matchedRoutes } from "hono/route";
import { LRUCache } from "lru-cache";
import type { Logger, RequestLine } from "../../logger.js";
import type { EndpointSelector } from "../../rpc/endpoints.js";
import type { Outcome } from "../../service/answer-cache.js";
import type { Resolver } from "../../service/resolver.js";
import type { FullDomain } from "../../sns/domain.js";
import { NO_TELEMETRY, type Telemetry } from "../../telemetry.js";
import type { ClientCallLimit } from "../clients/client-call-limit.js";
import type { AppEnv } from "../env.js";
import { UNMATCHED_ANSWERS, type RouteAnswers, answersOf } from "../openapi/route-answers.js";
import { requestIdFor } from "./request-id.js";
import { cacheControlFor } from "./cache-control.js";
import type { Classified } from "./classify.js";
import { okText } from "./envelope.js";
import { renderFailure } from "./failure.js";
import { answerHeaders } from "./headers.js";
import { type AnswerSinks, lineMs, recordAnswer } from "./finish.js";
import { routePatternOf } from "./request-log.js";

/** What the resolve route learned of a request, for its repeats. */
interface KnownRequest {
  readonly domain: FullDomain;
  /** The route pattern, for the metrics and the log line. */
  readonly route: string;
  /** What the route declares about its answers (its wording of failures). */
  readonly answers: RouteAnswers;
  /** The Cache-Control a success earns (cache-policy.ts). */
  readonly policy: string;
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

export interface RepeatAnswer {
  readonly status: number;
  readonly headers: Record<string, string | number>;
  readonly body: string;
}

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
}

/** Requests remembered: keys are client-chosen, so the bound is on bytes too. */
const KNOWN_BOUND: LRUCache.Options<string, KnownRequest, unknown> = {
  max: 10_000,
  maxSize: 4 * 1024 * 1024,
  sizeCalculation: (known, key) => key.length + 2 * known.domain.name.length + 256,
};

/**
 * Answers a repeated `/resolve` request from the resolve cache before the
 * request reaches the app: no routing, no input schemas, no request frame.
 * Most of what a cache hit cost was that path around it.
 *
 * Only requests the route has already answered are recognised, by the exact
 * key it learned them under (`learn`), so the path was validated by the
 * app's own schemas, and the request had no query (no `rpc` override).
 * Only outcomes the resolver gives as they are (`Resolver.cachedEntry`)
 * are answered here; a miss, a refresh due, or a `.sol` cutoff to read go to
 * the app. An answer here has the status, body and headers the app gives
 * for the same cache entry (its slot and `Age` too), and is counted and logged as the app counts
 * and logs it.
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
   * logged; undefined when the app must answer it.
   */
  answer(key: string, requestIdHeader: string | undefined, client: () => string): RepeatAnswer | undefined {
    const started = performance.now();
    const known = this.known.get(key);
    if (!known) return undefined;
    const { resolver } = this.options;
    const entry = resolver.cachedEntry(this.options.endpoints.select(undefined), known.domain);
    if (!entry) return undefined;
    const outcome = entry.outcome;
    // The client's window, as the app's frame would show it; spent, the app answers (429).
    const limited = this.options.callLimit?.headersFor(client());
    if (this.options.callLimit && !limited) return undefined;
    this.sinks.telemetry.httpRequestStarted();
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
      limited,
      slot,
      age,
    );
    headers["Content-Length"] = rendered.length;
    const seconds = (performance.now() - started) / 1000;
    const line: RequestLine = {
      reqId: requestId,
      method: "GET",
      route: known.route,
      status: rendered.status,
      ms: lineMs(seconds),
      rpcCalls: 0,
      rpcAccounts: 0,
      rpcOverride: false,
    };
    if (rendered.failure !== undefined) line.error = rendered.failure.code;
    recordAnswer(this.sinks, line, seconds, "hit", age);
    return { status: rendered.status, headers, body: rendered.body };
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
  return { outcome, status, body, length: UTF8.encode(body).length, cacheControl, extra, failure };
}

/** The handler Hono matched for this request (the last one: middleware aside, routes do not overlap). */
function matchedHandler(c: Context<AppEnv>): object {
  const matched = matchedRoutes(c);
  return matched[matched.length - 1]!.handler;
}

const UTF8 = new TextEncoder();
const JSON_TYPE = "application/json";
