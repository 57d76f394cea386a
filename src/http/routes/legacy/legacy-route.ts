import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../env.js";
import { type FixedFailure, declareAnswers } from "../../openapi/route-answers.js";

/** A route of the retired hosts' API: its handler answers a request or throws; it never calls `next`. */
export type LegacyHandler = (c: Context<AppEnv>) => Response | Promise<Response>;

/** What a legacy route declares: whether it reads the chain, and its one error answer. */
export interface LegacyRouteDeclaration {
  readonly rpc: boolean;
  readonly fixedFailure: FixedFailure;
}

/** The retired hosts' error answers, by the text they sent. */
export const DOMAIN_NOT_FOUND: FixedFailure = { status: 200, message: "Domain not found" };
export const INVALID_DOMAIN_INPUT: FixedFailure = { status: 200, message: "Invalid domain input" };
export const INVALID_INPUT: FixedFailure = { status: 200, message: "Invalid input" };
/** Routes with a schema: what is not a schema failure (answered 400 by the route) is 500. */
export const INTERNAL_ERROR: FixedFailure = { status: 500, message: "Internal error" };

/**
 * A `GET` route of the legacy profile at `path` (Hono's `:param` syntax): never kept by shared caches (no
 * `Cache-Control` was sent by the retired hosts, and a name's owner changes), not in the OpenAPI document
 * (which describes v1), its failures answered by its fixed answer (answer/failure.ts).
 */
export function legacyGet(
  routes: OpenAPIHono<AppEnv>,
  path: string,
  declaration: LegacyRouteDeclaration,
  handler: LegacyHandler,
): void {
  routes.get(path, declareAnswers(handler, { cache: "none", ...declaration }));
}

export const legacyRoutes = (): OpenAPIHono<AppEnv> => new OpenAPIHono<AppEnv>();
