import type { Context } from "hono";
import { matchedRoutes } from "hono/route";
import { UNMATCHED_ROUTE } from "../../telemetry.js";
import type { Logger, RequestLine } from "../../logger.js";
import type { AppEnv, BulkTally } from "../deps.js";
import type { Classified } from "./classify.js";
import type { RpcUsage } from "../frame/rpc-usage.js";

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
 * Writes the one log line of an answered request (see recordAnswer). The
 * line never holds the path's query string or the `rpc` parameter: an
 * override URL may carry an API key, so only whether one was given
 * (`rpcGiven`) is written.
 */
export function writeRequestLine(
  logger: Logger,
  reqId: string,
  method: string,
  route: string,
  status: number,
  seconds: number,
  usage: RpcUsage | undefined,
  rpcGiven: boolean,
  failure: Classified | undefined,
  bulk?: BulkTally,
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
  if (failure !== undefined) line.error = failure.code;
  if (bulk) {
    line.names = bulk.names;
    line.distinctNames = bulk.distinct;
    line.items = bulk.items;
    line.jsonRpcCalls = bulk.jsonRpcCalls;
  }
  if (logger.request) logger.request(line);
  else logger.info(line, "request");
}
