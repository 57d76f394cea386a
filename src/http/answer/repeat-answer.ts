import type { Context } from "hono";
import { LRUCache } from "lru-cache";
import type { Logger } from "../../logger.js";
import type { EndpointSelector } from "../../rpc/endpoints.js";
import type { Outcome, Resolver } from "../../service/resolver.js";
import type { FullDomain } from "../../sns/domain.js";
import { NO_TELEMETRY, type Telemetry } from "../../telemetry.js";
import { cacheControlFor } from "./cache-control.js";
import type { AppEnv } from "../deps.js";
import { envelopeHeaders, errorText, okText } from "./envelope.js";
import { errorAnswer } from "./classify.js";
import { requestIdFor, routePatternOf, writeRequestLine } from "./request-log.js";

/** What the resolve route learned of a request, for its repeats. */
interface KnownRequest {
  readonly domain: FullDomain;
  /** The route pattern, for the metrics and the log line. */
  readonly route: string;
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
  /** The error a failure is logged with. */
  readonly failure: unknown;
}

export interface ShortcutAnswer {
  readonly status: number;
  readonly headers: Record<string, string | number>;
  readonly body: string;
}

export interface ResolveShortcutOptions {
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
 * Only outcomes the resolver gives as they are (`Resolver.cachedOutcome`)
 * are answered here; a miss, a refresh due, or a `.sol` cutoff to read go to
 * the app. An answer here has the status, body and headers the app gives
 * for the same cache entry, and is counted and logged as the app counts
 * and logs it.
 */
export class ResolveShortcut {
  private readonly known = new LRUCache<string, KnownRequest>(KNOWN_BOUND);
  private readonly telemetry: Telemetry;

  constructor(private readonly options: ResolveShortcutOptions) {
    this.telemetry = options.telemetry ?? NO_TELEMETRY;
  }

  /** Remembers a request whose path the resolve route validated as `domain`. */
  learn(c: Context<AppEnv>, domain: FullDomain): void {
    const key = this.options.keyOf(c);
    if (key === undefined || this.known.has(key)) return;
    this.known.set(key, { domain, route: routePatternOf(c), policy: c.get("sharedCacheControl") });
  }

  /**
   * The answer to a request recognised by `key`, with its request id (from
   * `requestIdHeader`, the `X-Request-Id` the request carries), counted and
   * logged; undefined when the app must answer it.
   */
  answer(key: string, requestIdHeader: string | undefined): ShortcutAnswer | undefined {
    const started = performance.now();
    const known = this.known.get(key);
    if (!known) return undefined;
    const outcome = this.options.resolver.cachedOutcome(this.options.endpoints.select(undefined), known.domain);
    if (!outcome) return undefined;
    this.telemetry.httpRequestStarted();
    const rendered = known.rendered?.outcome === outcome ? known.rendered : (known.rendered = render(outcome, known));
    const requestId = requestIdFor(requestIdHeader);
    const headers: Record<string, string | number> = envelopeHeaders(rendered.cacheControl, requestId);
    headers["Content-Length"] = rendered.length;
    const seconds = (performance.now() - started) / 1000;
    this.telemetry.httpRequestFinished(known.route, "GET", rendered.status, seconds);
    writeRequestLine(this.options.logger, requestId, "GET", known.route, rendered.status, seconds, undefined, false, rendered.failure);
    return { status: rendered.status, headers, body: rendered.body };
  }
}

/** An outcome as the app answers it: the envelope, and the error table for failures. */
function render(outcome: Outcome, known: KnownRequest): RenderedOutcome {
  if (outcome.ok) return rendered(outcome, known, 200, okText(outcome.key), undefined);
  const { status, message } = errorAnswer(outcome.error, known.route);
  return rendered(outcome, known, status, errorText(message), outcome.error);
}

function rendered(outcome: Outcome, known: KnownRequest, status: number, body: string, failure: unknown): RenderedOutcome {
  return { outcome, status, body, length: UTF8.encode(body).length, cacheControl: cacheControlFor(known.policy, status), failure };
}

const UTF8 = new TextEncoder();
