import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv } from "../env.js";
import { boundedPolicy } from "./cache-control.js";
import type { Classified } from "./classify.js";
import { appAnswer } from "./headers.js";

/** What an answer carries besides its body: headers of its own (a route's, Retry-After). */
export interface AnswerOptions {
  /** Extra headers; the common set (CORS, Cache-Control, request id, …) is written by answer/headers.ts. */
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
 * An envelope answer: `body` as JSON, with the headers the frame decided
 * for the request and `extra` (answer/headers.ts), all in place when it is built.
 */
const envelopeAnswer = (
  c: Context<AppEnv>,
  status: ContentfulStatusCode,
  body: string,
  extra: Readonly<Record<string, string>> | undefined,
): Response => appAnswer(c, status, body, "application/json", extra);
