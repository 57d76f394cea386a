import type { SnsErrorCode } from "../../sns/errors.js";

/**
 * What a route's successes may be kept for by shared caches, declared with
 * the route (DocumentedRoute.cache); answer/cache-policy.ts turns it into a
 * `Cache-Control`:
 * - `chain`: answers that depend only on the chain, kept CACHE_TTL_SECONDS;
 * - `resolve`: `/resolve` answers, kept no longer than the gateway's own resolve cache;
 * - `reference`: the API reference, which changes only with the deployed version;
 * - `none`: never kept (liveness, metrics, answers that build transactions).
 */
export type CacheClass = "chain" | "resolve" | "reference" | "none";

/**
 * A route's own wording for a failure, where upstream names the missing
 * thing after the route (`/reverse-lookup` says `Account not found` where
 * the others say `Resource not found`). Declared with the route (see
 * DocumentedRoute.wording).
 */
export type RouteWording = Readonly<Partial<Record<SnsErrorCode, string>>>;

/**
 * What a route declares about its answers beyond its body: how long shared
 * caches may keep a success, and its own wording for failures. Every route
 * declares it where it declares its paths and validation
 * (documented-route.ts); the answer pipeline (src/http/answer/) reads it
 * for the route Hono matched.
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
  /**
   * The route's one answer to every failure about its input or the chain (the retired hosts' API, see
   * src/http/routes/legacy/): a failure of the RPC or of the gateway's own limits keeps its own answer
   * (answer/failure.ts). Absent: each failure is answered as answer/classify.ts says.
   */
  readonly fixedFailure?: FixedFailure;
}

/** A fixed error answer: its status and the envelope's `result`. */
export interface FixedFailure {
  readonly status: 200 | 400 | 500;
  readonly message: string;
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
