import type { Context } from "hono";
import { TrieRouter } from "hono/router/trie-router";
import type { RouterRoute } from "hono/types";
import { NO_STORE } from "./cache-control.js";
import type { AppEnv } from "../deps.js";

/** The order methods are listed in `Allow`; OPTIONS (CORS preflights) is answered on every path. */
const METHOD_ORDER = ["GET", "HEAD", "POST", "OPTIONS"];
const BODY = JSON.stringify({ s: "error", result: "Method not allowed" });

/**
 * When a request no route answered names a known path with a method that
 * path does not take (any method but its own and OPTIONS, however exotic:
 * QUERY, TRACE, PROPFIND…), the `Allow` of that path; else undefined.
 * Decided where a 404 is being answered, from the app's routes as Hono's
 * `methodNotAllowed` middleware reads them, so the answers of known routes
 * pay nothing for it.
 */
export function methodNotAllowedOn(routes: readonly RouterRoute[]): (c: Context<AppEnv>) => string | undefined {
  let allowedByPath: TrieRouter<readonly string[]> | undefined;
  const allowedMethods = (): TrieRouter<readonly string[]> => {
    const methodsByPath = new Map<string, Set<string>>();
    for (const route of routes) {
      if (route.method === "ALL" || route.method === "HEAD") continue;
      const methods = methodsByPath.get(route.path) ?? new Set<string>(["OPTIONS"]);
      methods.add(route.method);
      if (route.method === "GET") methods.add("HEAD");
      methodsByPath.set(route.path, methods);
    }
    const router = new TrieRouter<readonly string[]>();
    for (const [path, methods] of methodsByPath) router.add("ALL", path, METHOD_ORDER.filter((m) => methods.has(m)));
    return router;
  };
  return (c) => {
    // Built on first use: every route is registered by then.
    allowedByPath ??= allowedMethods();
    const matched = allowedByPath.match("ALL", c.req.path)[0];
    if (matched.length === 0) return undefined;
    const method = c.req.method;
    if (matched.some(([methods]) => methods.includes(method))) return undefined;
    return [...new Set(matched.flatMap(([methods]) => methods))].sort((a, b) => METHOD_ORDER.indexOf(a) - METHOD_ORDER.indexOf(b)).join(", ");
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
