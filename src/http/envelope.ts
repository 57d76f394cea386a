import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/** Every body this service writes: `{ s: "ok", result }` or `{ s: "error", result: message }`. */
export const ok = (c: Context, result: unknown, status: ContentfulStatusCode = 200) =>
  c.json({ s: "ok", result }, status);

export const fail = (c: Context, status: ContentfulStatusCode, message: string) =>
  c.json({ s: "error", result: message }, status);

/** Headers of an error answer written outside the app (adapter and parser failures). */
export const ENVELOPE_HEADERS = {
  "Content-Type": "application/json",
  "Access-Control-Allow-Origin": "*",
  "Cache-Control": "no-store",
} as const;
