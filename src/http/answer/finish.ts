import type { Context } from "hono";
import type { Logger, RequestLine } from "../../logger.js";
import type { RpcUsage } from "../../rpc/request-view.js";
import { type Telemetry, httpMethodLabel } from "../../telemetry.js";
import type { AppEnv, BulkTally } from "../env.js";

/** Where answers are reported. */
export interface AnswerSinks {
  readonly logger: Logger;
  readonly telemetry: Telemetry;
}

/** What is reported of one answered request. */
export interface AnsweredRequest {
  readonly requestId: string;
  readonly method: string;
  /** The route pattern (`/resolve/:domain`), never the path. */
  readonly route: string;
  readonly status: number;
  /** From the request's arrival to its answer. */
  readonly seconds: number;
  /** What it asked its RPC endpoint for; absent: nothing. */
  readonly usage?: RpcUsage | undefined;
  /** Whether it carried an `rpc` parameter (only that: an override URL may carry an API key). */
  readonly rpcGiven: boolean;
  /** The failure it was answered with (answer/classify.ts), by its code. */
  readonly failure?: { readonly code: string } | undefined;
  /** The bulk routes' tally of names. */
  readonly bulk?: BulkTally | undefined;
}

/**
 * Counts an answered request and writes its one log line: every answer the
 * gateway gives, inside the app or before it (resolve-repeats.ts), is
 * reported here. The line never holds the path's query string or the `rpc`
 * parameter: only whether one was given.
 */
export function recordAnswer(sinks: AnswerSinks, answered: AnsweredRequest): void {
  const { status, method, route, seconds, usage, failure, bulk } = answered;
  sinks.telemetry.httpRequestFinished(route, httpMethodLabel(method), status, seconds);
  const line: RequestLine = {
    reqId: answered.requestId,
    method,
    route,
    status,
    ms: Math.round(seconds * 100_000) / 100,
    rpcCalls: usage?.calls ?? 0,
    rpcAccounts: usage?.accounts ?? 0,
    rpcOverride: answered.rpcGiven,
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
 * After a route (or the 404/405, or a preflight) has answered: its answer
 * was built with every header (answer/headers.ts), so this only reports it
 * (`recordAnswer`); `started` is `performance.now()` when the request
 * entered the frame.
 */
export function finishAnswer(sinks: AnswerSinks, c: Context<AppEnv>, route: string, started: number, rpcGiven: boolean): Response {
  const res = c.res;
  recordAnswer(sinks, {
    requestId: c.get("requestId"),
    method: c.req.method,
    route,
    status: res.status,
    seconds: (performance.now() - started) / 1000,
    usage: c.get("rpcUsage"),
    rpcGiven,
    failure: c.get("failure"),
    bulk: c.get("bulk"),
  });
  return res;
}
