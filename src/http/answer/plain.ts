import type { Context } from "hono";
import type { AppEnv } from "../env.js";
import type { AnswerOptions } from "./envelope.js";
import { appAnswer } from "./headers.js";

/**
 * An answer outside the envelope (the API reference, Prometheus text, readiness; a success unless `status`):
 * `body` as `contentType`, with headers of its own, and the common set
 * (answer/headers.ts) like any answer.
 */
export const plain = (
  c: Context<AppEnv>,
  body: string,
  contentType: string,
  options?: AnswerOptions & { readonly status?: number },
): Response => appAnswer(c, options?.status ?? 200, body, contentType, options?.headers);

/** A path (or method) no route serves, on the legacy profile: the plain-text 404 the retired hosts gave. */
export const plainNotFound = (c: Context<AppEnv>): Response =>
  appAnswer(c, 404, "404 Not Found", "text/plain; charset=UTF-8");
