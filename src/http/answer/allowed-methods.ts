import { TrieRouter } from "hono/router/trie-router";
import type { RouterRoute } from "hono/types";

/** The order methods are listed in `Allow` and `Access-Control-Allow-Methods`. */
const METHOD_ORDER = ["GET", "HEAD", "POST", "OPTIONS"];

/**
 * The methods the app takes on a path, from its routes as Hono's
 * `methodNotAllowed` middleware reads them: each route's own, HEAD with GET
 * (Hono answers it through the GET handler), and OPTIONS on every known path
 * (CORS preflights, frame/frame.ts). Empty for a path no route serves. Both
 * the 405's `Allow` (method-not-allowed.ts) and a preflight's
 * `Access-Control-Allow-Methods` (frame/preflight.ts) list these.
 */
export function allowedMethodsOn(routes: readonly RouterRoute[]): (path: string) => readonly string[] {
  let allowedByPath: TrieRouter<readonly string[]> | undefined;
  const build = (): TrieRouter<readonly string[]> => {
    const methodsByPath = new Map<string, Set<string>>();
    for (const route of routes) {
      if (route.method === "ALL" || route.method === "HEAD") continue;
      const methods = methodsByPath.get(route.path) ?? new Set<string>(["OPTIONS"]);
      methods.add(route.method);
      if (route.method === "GET") methods.add("HEAD");
      methodsByPath.set(route.path, methods);
    }
    const router = new TrieRouter<readonly string[]>();
    for (const [path, methods] of methodsByPath)
      router.add(
        "ALL",
        path,
        METHOD_ORDER.filter((m) => methods.has(m)),
      );
    return router;
  };
  return (path) => {
    // Built on first use: every route is registered by then.
    allowedByPath ??= build();
    const matched = allowedByPath.match("ALL", path)[0];
    if (matched.length <= 1) return matched[0]?.[0] ?? NONE;
    // Patterns that overlap on this path: their methods together, in the one order.
    const methods = new Set(matched.flatMap(([listed]) => listed));
    return METHOD_ORDER.filter((m) => methods.has(m));
  };
}

const NONE: readonly string[] = [];
