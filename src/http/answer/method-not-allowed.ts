import type { Context } from "hono";
import { NO_STORE } from "./cache-control.js";
import type { AppEnv } from "../deps.js";

const BODY = JSON.stringify({ s: "error", result: "Method not allowed" });

/**
 * When a request no route answered names a known path with a method that
 * path does not take (any method but its own and OPTIONS, however exotic:
 * QUERY, TRACE, PROPFIND…), the `Allow` of that path; else undefined.
 * Decided where a 404 is being answered, from the methods each path takes
 * (allowed-methods.ts), so the answers of known routes pay nothing for it.
 */
export function methodNotAllowedOn(
  allowedMethods: (path: string) => readonly string[],
): (c: Context<AppEnv>) => string | undefined {
  return (c) => {
    const methods = allowedMethods(c.req.path);
    if (methods.length === 0 || methods.includes(c.req.method)) return undefined;
    return methods.join(", ");
  };
}

/**
 * The 405, with every header in one record: those on Hono's context (the
 * override rate limit's), `Allow`, and the envelope's, in lower case and
 * sorted as a `Headers` copy lists them, then `content-length`. These are
 * the bytes it has always had on the wire (the answer Hono rebuilt from the
 * 404 it replaced, its length written last by the Node adapter).
 */
export function methodNotAllowedAnswer(c: Context<AppEnv>, allow: string): Response {
  c.header("Allow", allow);
  const headers = c.body(null, 405, { "Content-Type": "application/json" }).headers;
  headers.set("Access-Control-Allow-Origin", "*");
  headers.set("Cache-Control", NO_STORE);
  headers.set("X-Request-Id", c.get("requestId"));
  const record: Record<string, string> = {};
  for (const [name, value] of headers) record[name] = value;
  // The body is ASCII: its length in characters is its length in bytes.
  record["content-length"] = String(BODY.length);
  const answer = new Response(BODY, { status: 405, headers: record });
  c.set("envelopeAnswer", answer);
  return answer;
}
