import type { Context } from "hono";
import type { AppEnv, RateLimitHeaders } from "../env.js";
import { cacheControlFor } from "./cache-control.js";
import { tracedBody } from "./trace-body.js";

/**
 * The one writer of an answer's headers. Every answer the gateway gives
 * has its headers from here: envelope answers, plain ones, the 301, the 405,
 * a preflight, the repeats answered before the app (resolve-repeats.ts), the
 * edge cache's (edge-cache.ts) and the answers below the app (outside-app.ts).
 * The common set is written here once: CORS for any origin, the
 * `Cache-Control` (absent: none, as for a preflight), the `Content-Type`
 * (absent: none, as for an answer without a body), the request id (absent
 * below the app, where no request exists), the client's `RateLimit-*`
 * where a call limit counts it; `extra` are the answer's own (a route's,
 * `Retry-After`, `Allow`, …). An answer that read the chain carries
 * `X-Context-Slot` (`slot`: the lowest context slot of its reads), and one
 * served from a cache `Age` (`ageSeconds`, RFC 9111: whole seconds since
 * it was read).
 *
 * One plain record, names in lower case and sorted, as a `Headers` copy
 * lists them: on Node, @hono/node-server hands a record to `writeHead` as
 * is, where a `Headers` object is validated, sorted and copied entry by
 * entry; the bytes on the wire are the same either way.
 */
export function answerHeaders(
  cacheControl: string | undefined,
  requestId: string | undefined,
  contentType: string | undefined,
  extra?: Readonly<Record<string, string>>,
  rateLimit?: RateLimitHeaders,
  slot?: number,
  ageSeconds?: number,
): Record<string, string> {
  if (slot !== undefined || ageSeconds !== undefined) {
    if (extra === undefined && cacheControl !== undefined && requestId !== undefined && contentType !== undefined) {
      return readHeaders(cacheControl, requestId, contentType, rateLimit, slot, ageSeconds);
    }
    const read: Record<string, string> = { ...extra };
    if (slot !== undefined) read["x-context-slot"] = String(slot);
    if (ageSeconds !== undefined) read.age = String(ageSeconds);
    return answerHeaders(cacheControl, requestId, contentType, read, rateLimit);
  }
  // The common answers (an envelope with no headers of its own): already in order, one object.
  if (extra === undefined && cacheControl !== undefined && requestId !== undefined && contentType !== undefined) {
    if (rateLimit === undefined) {
      return {
        "access-control-allow-origin": "*",
        "cache-control": cacheControl,
        "content-type": contentType,
        "x-request-id": requestId,
      };
    }
    return {
      "access-control-allow-origin": "*",
      "cache-control": cacheControl,
      "content-type": contentType,
      "ratelimit-limit": rateLimit["ratelimit-limit"],
      "ratelimit-policy": rateLimit["ratelimit-policy"],
      "ratelimit-remaining": rateLimit["ratelimit-remaining"],
      "ratelimit-reset": rateLimit["ratelimit-reset"],
      "x-request-id": requestId,
    };
  }
  const headers: Record<string, string> = { "access-control-allow-origin": "*" };
  if (cacheControl !== undefined) headers["cache-control"] = cacheControl;
  if (contentType !== undefined) headers["content-type"] = contentType;
  if (requestId !== undefined) headers["x-request-id"] = requestId;
  if (rateLimit !== undefined) Object.assign(headers, rateLimit);
  if (extra === undefined && rateLimit === undefined) return headers;
  if (extra !== undefined) for (const name in extra) headers[name.toLowerCase()] = extra[name]!;
  const sorted: Record<string, string> = {};
  for (const name of Object.keys(headers).sort()) sorted[name] = headers[name]!;
  return sorted;
}

/** The text of the last slot written: consecutive answers mostly carry the same slot. */
let lastSlot = -1;
let lastSlotText = "";
const slotText = (slot: number): string => {
  if (slot !== lastSlot) {
    lastSlot = slot;
    lastSlotText = String(slot);
  }
  return lastSlotText;
};

/** The common answers that read the chain (an envelope with no headers of its own): one object, built in order. */
function readHeaders(
  cacheControl: string,
  requestId: string,
  contentType: string,
  rateLimit: RateLimitHeaders | undefined,
  slot: number | undefined,
  ageSeconds: number | undefined,
): Record<string, string> {
  const headers: Record<string, string> = { "access-control-allow-origin": "*" };
  if (ageSeconds !== undefined) headers.age = String(ageSeconds);
  headers["cache-control"] = cacheControl;
  headers["content-type"] = contentType;
  if (rateLimit !== undefined) {
    headers["ratelimit-limit"] = rateLimit["ratelimit-limit"];
    headers["ratelimit-policy"] = rateLimit["ratelimit-policy"];
    headers["ratelimit-remaining"] = rateLimit["ratelimit-remaining"];
    headers["ratelimit-reset"] = rateLimit["ratelimit-reset"];
  }
  if (slot !== undefined) headers["x-context-slot"] = slotText(slot);
  headers["x-request-id"] = requestId;
  return headers;
}

/**
 * An answer inside the app, with every header in place when it is built
 * (the frame adds none after the route): the common set from what the frame
 * decided for the request (its id, the `Cache-Control` a success earns,
 * the client's `RateLimit-*`), then `extra`; and what the request read:
 * `X-Context-Slot` from its budget (rpc/request-budget.ts, the lowest
 * slot of its reads), or, for an answer served from the resolve cache, the
 * slot and `Age` the route set (`answerSlot`, `answerAge`).
 */
export function appAnswer(
  c: Context<AppEnv>,
  status: number,
  body: string | null,
  contentType: string | undefined,
  extra?: Readonly<Record<string, string>>,
): Response {
  const shared = c.get("sharedCacheControl");
  const cacheControl = shared === undefined ? undefined : cacheControlFor(shared, status);
  const age = c.get("answerAge");
  const slot = c.get("answerSlot") ?? c.get("rpcBudget")?.lowestSlot;
  const headers = answerHeaders(
    cacheControl,
    c.get("requestId"),
    contentType,
    extra,
    c.get("rateLimit"),
    slot === undefined || slot === Infinity ? undefined : slot,
    age,
  );
  // Only a request that asked for it (`trace=1`) has a trace: its envelope says how it was decided.
  const trace = c.get("trace");
  return new Response(trace === undefined || body === null ? body : tracedBody(c, body, trace), { status, headers });
}
