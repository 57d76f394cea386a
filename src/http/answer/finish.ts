import type { Context } from "hono";
import type { Logger, RequestLine } from "../../logger.js";
import { type Telemetry, httpMethodLabel } from "../../telemetry.js";
import type { AppEnv, BulkTally } from "../deps.js";
import type { RpcUsage } from "../frame/rpc-usage.js";
import { cacheControlFor } from "./cache-control.js";
import type { Classified } from "./classify.js";
import { hasAllHeaders } from "./envelope.js";

/** Where answers are reported. */
export interface AnswerSinks {
  readonly logger: Logger;
  readonly telemetry: Telemetry;
}

/**
 * Counts an answered request and writes its one log line: every answer the
 * gateway gives, inside the app or before it (repeat-answer.ts), is
 * reported here. The line never holds the path's query string or the `rpc`
 * parameter: an override URL may carry an API key, so only whether one was
 * given (`rpcGiven`) is written.
 */
export function recordAnswer(
  sinks: AnswerSinks,
  requestId: string,
  method: string,
  route: string,
  status: number,
  seconds: number,
  usage: RpcUsage | undefined,
  rpcGiven: boolean,
  failure: Classified | undefined,
  bulk?: BulkTally,
): void {
  sinks.telemetry.httpRequestFinished(route, httpMethodLabel(method), status, seconds);
  const line: RequestLine = {
    reqId: requestId,
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
  const { logger } = sinks;
  if (logger.request) logger.request(line);
  else logger.info(line, "request");
}

/**
 * After a route (or the 404/405, or a preflight) has answered: the headers
 * its answer lacks when it was not built with all of them (envelope.ts),
 * then `recordAnswer`. The Cache-Control a success earns is the request's
 * `sharedCacheControl` (none for a preflight); `started` is
 * `performance.now()` when the request entered the frame.
 */
export function finishAnswer(
  sinks: AnswerSinks,
  c: Context<AppEnv>,
  route: string,
  started: number,
  rpcGiven: boolean,
): Response {
  let res = c.res;
  const { status } = res;
  if (!hasAllHeaders(c)) {
    const { headers } = res;
    const shared = c.get("sharedCacheControl");
    if (shared !== undefined) headers.set("Cache-Control", cacheControlFor(shared, status));
    headers.set("Access-Control-Allow-Origin", "*");
    headers.set("X-Request-Id", c.get("requestId"));
    // Hono answers HEAD with `new Response(null, answer)`, which on Node (@hono/node-server's Response)
    // copies the headers the answer was built with, not those set on it since: a HEAD answer is given
    // here with every header GET's has, and no body.
    if (c.req.method === "HEAD") res = c.res = new Response(null, { status, headers });
  }
  const seconds = (performance.now() - started) / 1000;
  const failure = c.get("failure");
  recordAnswer(
    sinks,
    c.get("requestId"),
    c.req.method,
    route,
    status,
    seconds,
    c.get("rpcUsage"),
    rpcGiven,
    failure,
    c.get("bulk"),
  );
  return res;
}
