import { TrieRouter } from "hono/router/trie-router";
import type { RouterRoute } from "hono/types";
import type { CacheClass } from "./cache-policy.js";
import type { RouteWording } from "./classify.js";

/**
 * What a route declares about its answers beyond its body: how long shared
 * caches may keep a success, and its own wording for failures. Every route
 * declares it where it declares its paths and validation
 * (src/http/openapi/documented-route.ts); the answer pipeline reads it for
 * the route Hono matched.
 */
export interface RouteAnswers {
  readonly cache: CacheClass;
  readonly wording?: RouteWording;
  /**
   * The route may read the chain: a request naming `rpc` on it pays the
   * override rate limit. Routes that never do (key derivations, deprecated
   * routes, health, 404s and 405s) answer as they always do, `rpc` or not.
   */
  readonly rpc?: boolean;
}

/** The answers of requests no route matched (404, 405, CORS preflights): never kept. */
export const UNMATCHED_ANSWERS: RouteAnswers = { cache: "none" };

const declared = new WeakMap<object, RouteAnswers>();

/** Records what the route answered by `handler` declares (called where the route is registered). */
export function declareAnswers<H extends object>(handler: H, answers: RouteAnswers): H {
  declared.set(handler, answers);
  return handler;
}

/** What the route of `handler` declared; undefined for a handler registered without a declaration. */
export const answersOf = (handler: object): RouteAnswers | undefined => declared.get(handler);

/**
 * What the GET route answering `path` declared, looked up outside the app
 * (the Workers entry decides before the app whether the edge cache may hold
 * an answer); UNMATCHED_ANSWERS where no route answers. Built on first use,
 * from the app's routes once they are all mounted.
 */
export function answersLookup(routes: readonly RouterRoute[]): (path: string) => RouteAnswers {
  let router: TrieRouter<RouteAnswers> | undefined;
  const build = (): TrieRouter<RouteAnswers> => {
    const built = new TrieRouter<RouteAnswers>();
    for (const route of routes) {
      const answers = route.method === "GET" ? answersOf(route.handler) : undefined;
      if (answers) built.add("GET", route.path, answers);
    }
    return built;
  };
  return (path) => {
    router ??= build();
    return router.match("GET", path)[0][0]?.[0] ?? UNMATCHED_ANSWERS;
  };
}
