import type { Context } from "hono";
import type { Logger, RequestLine } from "../../logger.js";
import { type AnswerCacheOutcome, type Telemetry, httpMethodLabel } from "../../telemetry.js";
import type { AppEnv } from "../env.js";

/** Where answers are reported. */
export interface AnswerSinks {
  readonly logger: Logger;
  readonly telemetry: Telemetry;
}

/** A request's duration as its log line writes it: milliseconds, to the hundredth. */
export const lineMs = (seconds: number): number => Math.round(seconds * 100_000) / 100;

/**
 * Counts an answered request and writes its one log line: every answer the
 * gateway gives, inside the app or before it (resolve-repeats.ts), is
 * reported here, `line` (the record of the answer, built by the caller)
 * and `seconds` from its arrival to its answer, for the metrics. The line
 * never holds the path's query string or the `rpc` parameter: an override
 * URL may carry an API key, so only whether one was given (`rpcOverride`).
 * The caller builds the line itself: the one object a request's report costs.
 * `cache`: where the answer came from, with its age when from the resolve cache.
 */
export function recordAnswer(
  sinks: AnswerSinks,
  line: RequestLine,
  seconds: number,
  cache: AnswerCacheOutcome = "none",
  ageSeconds?: number,
): void {
  sinks.telemetry.httpRequestFinished(line.route, httpMethodLabel(line.method), line.status, seconds);
  sinks.telemetry.answerServed(cache, ageSeconds);
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
export function finishAnswer(
  sinks: AnswerSinks,
  c: Context<AppEnv>,
  route: string,
  started: number,
  rpcGiven: boolean,
): Response {
  const res = c.res;
  const seconds = (performance.now() - started) / 1000;
  const usage = c.get("rpcUsage");
  const line: RequestLine = {
    reqId: c.get("requestId"),
    method: c.req.method,
    route,
    status: res.status,
    ms: lineMs(seconds),
    rpcCalls: usage?.calls ?? 0,
    rpcAccounts: usage?.accounts ?? 0,
    rpcOverride: rpcGiven,
  };
  const failure = c.get("failure");
  if (failure !== undefined) line.error = failure.code;
  const bulk = c.get("bulk");
  if (bulk) {
    line.names = bulk.names;
    line.distinctNames = bulk.distinct;
    line.items = bulk.items;
    line.jsonRpcCalls = bulk.jsonRpcCalls;
  }
  recordAnswer(sinks, line, seconds, c.get("answerCache"), c.get("answerAge"));
  return res;
}
