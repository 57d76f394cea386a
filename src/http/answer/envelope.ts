import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { NO_STORE, cacheControlFor } from "./cache-control.js";
import type { AppEnv } from "../deps.js";

/**
 * Every body this service writes: `{ s: "ok", result }` or `{ s: "error", result: message }`.
 * A string result (a key, a message: most answers) is spliced into the
 * envelope's fixed text, the bytes JSON.stringify of the object would give,
 * without the object.
 */
export const ok = (c: Context<AppEnv>, result: unknown, status: ContentfulStatusCode = 200): Response =>
  envelopeAnswer(c, status, typeof result === "string" ? okText(result) : JSON.stringify({ s: "ok", result }));

export const fail = (c: Context<AppEnv>, status: ContentfulStatusCode, message: string): Response =>
  envelopeAnswer(c, status, errorText(message));

/** The body of a success whose result is a string. */
export const okText = (result: string): string => `{"s":"ok","result":${JSON.stringify(result)}}`;

/** The body of a failure. */
export const errorText = (message: string): string => `{"s":"error","result":${JSON.stringify(message)}}`;

/**
 * The headers of an envelope answer (see `envelopeAnswer`): the keys and
 * order @hono/node-server writes, so that answers given before the app
 * (repeat-answer.ts) carry the same bytes.
 */
export const envelopeHeaders = (cacheControl: string, requestId: string): Record<string, string> => ({
  "access-control-allow-origin": "*",
  "cache-control": cacheControl,
  "content-type": "application/json",
  "x-request-id": requestId,
});

/**
 * Puts a header on Hono's context for the answer to come. Use it rather than
 * `c.header` before an envelope answer: it marks the context, so the answer
 * is built by Hono, which keeps the header (see `envelopeAnswer`).
 */
export function setContextHeader(c: Context<AppEnv>, name: string, value: string): void {
  c.set("contextHeaders", true);
  c.header(name, value);
}

/** Headers of an error answer written outside the app (adapter and parser failures). */
export const ENVELOPE_HEADERS = {
  "Content-Type": "application/json",
  "Access-Control-Allow-Origin": "*",
  "Cache-Control": NO_STORE,
} as const;

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
function envelopeAnswer(c: Context<AppEnv>, status: ContentfulStatusCode, body: string): Response {
  const requestId = c.get("requestId");
  const sharedCacheControl = c.get("sharedCacheControl");
  if (c.finalized || c.get("contextHeaders") || requestId === undefined || sharedCacheControl === undefined) {
    return c.body(body, status, { "Content-Type": "application/json" });
  }
  const answer = new Response(body, { status, headers: envelopeHeaders(cacheControlFor(sharedCacheControl, status), requestId) });
  c.set("envelopeAnswer", answer);
  return answer;
}

/** Whether the answer is one `envelopeAnswer` built with every header already in place. */
export const hasAllHeaders = (c: Context<AppEnv>): boolean => c.res === c.get("envelopeAnswer");
