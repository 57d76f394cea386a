import type { Context } from "hono";
import { NO_STORE } from "./cache-control.js";
import type { AppEnv } from "../env.js";
import { answerHeaders } from "./headers.js";

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
 * The 405: its `Allow` and the common set (answer/headers.ts), then
 * `content-length`, which it has always carried in its record (these are
 * the bytes it has always had on the wire).
 */
export function methodNotAllowedAnswer(c: Context<AppEnv>, allow: string): Response {
  const headers = answerHeaders(NO_STORE, c.get("requestId"), "application/json", { allow });
  // The body is ASCII: its length in characters is its length in bytes.
  headers["content-length"] = String(BODY.length);
  return new Response(BODY, { status: 405, headers });
}
