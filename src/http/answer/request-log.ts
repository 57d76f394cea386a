import type { Context } from "hono";
import { matchedRoutes } from "hono/route";
import { UNMATCHED_ROUTE } from "../../telemetry.js";
import type { Logger, RequestLine } from "../../logger.js";
import type { AppEnv } from "../deps.js";
import { errorCode } from "./classify.js";
import type { RpcUsage } from "../frame/rpc-usage.js";

/** An incoming id is kept when it is a plain token: printable ASCII, no spaces, bounded. */
const SANE_REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

export function requestIdFor(given: string | undefined): string {
  return given !== undefined && SANE_REQUEST_ID.test(given) ? given : crypto.randomUUID();
}

/**
 * The route pattern a request matched (`/resolve/:domain`), from Hono's
 * match result: the last matched handler route, middleware aside. Requests
 * no route matched (404, 405, CORS preflights) share one label, so neither
 * metrics nor logs ever carry a raw path.
 */
export function routePatternOf(c: Context<AppEnv>): string {
  const routes = matchedRoutes(c);
  for (let i = routes.length - 1; i >= 0; i--) {
    const route = routes[i]!;
    if (route.method !== "ALL") return route.path;
  }
  return UNMATCHED_ROUTE;
}

/**
 * Writes the one log line of an answered request. The line never holds the
 * path's query string or the `rpc` parameter: an override URL may carry an
 * API key, so only whether one was given (`rpcGiven`) is written.
 */
export function logAnswer(
  logger: Logger,
  c: Context<AppEnv>,
  route: string,
  status: number,
  seconds: number,
  rpcGiven: boolean,
): void {
  writeRequestLine(logger, c.get("requestId"), c.req.method, route, status, seconds, c.get("rpcUsage"), rpcGiven, c.get("error"));
}

/** The request line of `logAnswer`, from its parts: for answers given before any route runs (repeat-answer.ts). */
export function writeRequestLine(
  logger: Logger,
  reqId: string,
  method: string,
  route: string,
  status: number,
  seconds: number,
  usage: RpcUsage | undefined,
  rpcGiven: boolean,
  failure: unknown,
): void {
  const line: RequestLine = {
    reqId,
    method,
    route,
    status,
    ms: Math.round(seconds * 100_000) / 100,
    rpcCalls: usage?.calls ?? 0,
    rpcAccounts: usage?.accounts ?? 0,
    rpcOverride: rpcGiven,
  };
  if (failure !== undefined) line.error = errorCode(failure);
  if (logger.request) logger.request(line);
  else logger.info(line, "request");
}
