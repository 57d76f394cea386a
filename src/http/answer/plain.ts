import type { Context } from "hono";
import type { AppEnv } from "../env.js";
import type { AnswerOptions } from "./envelope.js";

/**
 * A success outside the envelope (the API reference, Prometheus text):
 * `body` as `contentType`, with headers of its own. The frame adds CORS,
 * Cache-Control and the request id once the route has answered (finish.ts).
 */
export const plain = (c: Context<AppEnv>, body: string, contentType: string, options?: AnswerOptions): Response =>
  c.body(body, 200, { "Content-Type": contentType, ...options?.headers });
