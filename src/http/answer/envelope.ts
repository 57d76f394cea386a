import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { boundedPolicy, cacheControlFor } from "./cache-control.js";
import type { AppEnv } from "../deps.js";
import type { Classified } from "./classify.js";

/** What an answer carries besides its body: headers of its own (a route's, Retry-After). */
export interface AnswerOptions {
  /** Extra headers, names in lower case; the envelope's own (CORS, Cache-Control, request id) are set by the pipeline. */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * How long a success stays true (an answer read from an expiring SRS
   * record): shared caches keep it no longer (cache-control.ts,
   * `boundedPolicy`). Absent: as the route's cache class allows.
   */
  readonly lifetimeMs?: number;
}

/**
 * Every body this service writes: `{ s: "ok", result }` or `{ s: "error", result: message }`.
 * A string result (a key, a message: most answers) is spliced into the
 * envelope's fixed text, the bytes JSON.stringify of the object would give,
 * without the object.
 */
export function ok(c: Context<AppEnv>, result: unknown, options?: AnswerOptions): Response {
  const lifetimeMs = options?.lifetimeMs;
  if (lifetimeMs !== undefined && lifetimeMs !== Infinity) {
    const shared = c.get("sharedCacheControl");
    if (shared !== undefined) c.set("sharedCacheControl", boundedPolicy(shared, lifetimeMs));
  }
  return envelopeAnswer(c, 200, okBody(result), options?.headers);
}

export const fail = (
  c: Context<AppEnv>,
  status: ContentfulStatusCode,
  message: string,
  options?: AnswerOptions,
): Response => envelopeAnswer(c, status, errorText(message), options?.headers);

/** The body of a success. */
export const okBody = (result: unknown): string =>
  typeof result === "string" ? okText(result) : JSON.stringify({ s: "ok", result });

/** The body of a success whose result is a string. */
export const okText = (result: string): string => `{"s":"ok","result":${JSON.stringify(result)}}`;

/** The body of a failure. */
export const errorText = (message: string): string => `{"s":"error","result":${JSON.stringify(message)}}`;

/** The headers a classified failure adds to its envelope (Retry-After of an overload, Connection of a refused body). */
export function failureHeaders(failure: Classified): Readonly<Record<string, string>> | undefined {
  if (failure.retryAfterSeconds === undefined && failure.closesConnection === undefined) return undefined;
  return {
    ...(failure.closesConnection && { connection: "close" }),
    ...(failure.retryAfterSeconds !== undefined && { "retry-after": String(failure.retryAfterSeconds) }),
  };
}

/**
 * The headers of an envelope answer (see `envelopeAnswer`): the keys and
 * order @hono/node-server writes, so that answers given before the app
 * (repeat-answer.ts) carry the same bytes. `extra` headers join them where
 * a `Headers` copy would list them (sorted by name).
 */
export function envelopeHeaders(
  cacheControl: string,
  requestId: string,
  extra?: Readonly<Record<string, string>>,
): Record<string, string> {
  const headers: Record<string, string> = {
    "access-control-allow-origin": "*",
    "cache-control": cacheControl,
    "content-type": "application/json",
    "x-request-id": requestId,
  };
  if (extra === undefined) return headers;
  const sorted: Record<string, string> = {};
  for (const name of [...Object.keys(headers), ...Object.keys(extra)].sort())
    sorted[name] = extra[name] ?? headers[name]!;
  return sorted;
}

/**
 * Headers a step before the route decides for whatever envelope answer the
 * request gets (the rate limits' `RateLimit-*`; names in lower case): kept
 * as a record the answer joins to its own (see `envelopeAnswer`), so an
 * answer still carries all of its headers in one plain record.
 */
export function addAnswerHeaders(c: Context<AppEnv>, headers: Readonly<Record<string, string>>): void {
  c.set("answerHeaders", headers);
}

/**
 * An envelope answer carries all of its headers in one plain record, built
 * here from what the middlewares decided before the route ran (the request
 * id, the Cache-Control of a success). On Node, @hono/node-server hands a
 * record to `writeHead` as is, where a `Headers` object (what Hono uses once
 * anything calls `c.header`, and what `c.res.headers` turns a record into)
 * is validated, sorted and copied entry by entry on every answer. The keys
 * are those that copy would write, in its order, so the bytes on the wire
 * are the same either way.
 *
 * Hono builds the answer instead, and the middlewares then set their headers
 * on it after the route, when the context already holds headers or an answer
 * (`c.header` was called, the 405 that replaces a 404) or a middleware did
 * not decide its part.
 */
function envelopeAnswer(
  c: Context<AppEnv>,
  status: ContentfulStatusCode,
  body: string,
  extra: Readonly<Record<string, string>> | undefined,
): Response {
  const requestId = c.get("requestId");
  const sharedCacheControl = c.get("sharedCacheControl");
  const decided = c.get("answerHeaders");
  if (decided !== undefined) extra = extra === undefined ? decided : { ...decided, ...extra };
  if (c.finalized || requestId === undefined || sharedCacheControl === undefined) {
    return c.body(body, status, { "Content-Type": "application/json", ...extra });
  }
  const headers = envelopeHeaders(cacheControlFor(sharedCacheControl, status), requestId, extra);
  const answer = new Response(body, { status, headers });
  c.set("envelopeAnswer", answer);
  return answer;
}

/** Whether the answer is one `envelopeAnswer` built with every header already in place. */
export const hasAllHeaders = (c: Context<AppEnv>): boolean => c.res === c.get("envelopeAnswer");
