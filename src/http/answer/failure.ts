import type { Context } from "hono";
import type { Logger } from "../../logger.js";
import type { AppEnv } from "../deps.js";
import { type Classified, classify } from "./classify.js";
import { errorText, fail, failureHeaders } from "./envelope.js";
import type { RouteAnswers } from "./route-answers.js";

/** A failure as every envelope answer renders it: its classification, body and extra headers. */
export interface RenderedFailure {
  readonly failure: Classified;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>> | undefined;
}

/** Renders `error` on a route declaring `answers`: the app's error answers and repeat answers (repeat-answer.ts) alike. */
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
  return fail(c, failure.status, failure.message, { headers: failureHeaders(failure) });
}
