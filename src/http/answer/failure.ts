import type { Context } from "hono";
import type { Logger } from "../../logger.js";
import { RpcEndpointRefusedError } from "../../rpc/errors.js";
import { SnsError } from "../../sns/errors.js";
import { InvalidInputError } from "../errors.js";
import type { AppEnv } from "../env.js";
import { CLIENT_CLOSED_STATUS, type Classified, classify } from "./classify.js";
import { errorText, fail, failureHeaders } from "./envelope.js";
import type { RouteAnswers } from "../openapi/route-answers.js";

/** A failure as every envelope answer renders it: its classification, body and extra headers. */
export interface RenderedFailure {
  readonly failure: Classified;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>> | undefined;
}

/** Renders `error` on a route declaring `answers`: the app's error answers and repeat answers (resolve-repeats.ts) alike. */
export function renderFailure(error: unknown, answers: RouteAnswers): RenderedFailure {
  const failure = classify(error, answers.wording);
  return { failure, body: errorText(failure.message), headers: failureHeaders(failure) };
}

/**
 * The answer to a failure thrown by a route (or by the frame before it):
 * classified, kept for the request's log line, and logged in full (stack
 * and cause) when it is a failure of the gateway or its RPC.
 */
export function answerFailure(
  logger: Logger,
  c: Context<AppEnv>,
  error: unknown,
  route: string,
  answers: RouteAnswers,
): Response {
  const failure = classify(error, answers.wording);
  c.set("failure", failure);
  if (failure.logged) logger.warn({ reqId: c.get("requestId"), route, err: error }, "request failed");
  const fixed = answers.fixedFailure;
  if (fixed !== undefined && takesFixedAnswer(error, failure)) return fail(c, fixed.status, fixed.message);
  return fail(c, failure.status, failure.message, { headers: failureHeaders(failure) });
}

/**
 * Failures a route's fixed answer stands for: what is about the name or the input (a protocol error, an input
 * error, a refused `rpc`), as the retired hosts answered them. Anything else keeps its own answer: a missing
 * or failing RPC (a "not found" instead would be cached by clients as "this name has no owner"), a bug (500
 * `Internal error`, never a 200 about the name), and the gateway's own limits (429, 503, 413, 499), which
 * tell a client to wait or stop rather than something about a name. A protocol error classified as one of
 * those keeps it too.
 */
const takesFixedAnswer = (error: unknown, failure: Classified): boolean =>
  (error instanceof SnsError || error instanceof InvalidInputError || error instanceof RpcEndpointRefusedError) &&
  !KEEP_THEIR_ANSWER.has(failure.status);

const KEEP_THEIR_ANSWER: ReadonlySet<number> = new Set([502, 429, 503, 413, CLIENT_CLOSED_STATUS]);
