import type { IncomingMessage } from "node:http";
import type { Context } from "hono";
import { hostHeaderCount } from "./host-headers.js";
import { incomingOf } from "./request-header.js";

/**
 * The key by which a repeat of a request is recognised before the app
 * (ResolveRepeats): its Host and its raw request target, as Node parsed
 * them. Undefined for what the app must always see: another method than
 * GET, a query (an `rpc` override among others), no Host or more than one
 * (the listener refuses those; the key then names one host, the one the app sees).
 */
export function nodeRequestKey(incoming: IncomingMessage): string | undefined {
  const { method, url } = incoming;
  const host = incoming.headers.host;
  if (method !== "GET" || url === undefined || host === undefined || url.includes("?")) return undefined;
  if (hostHeaderCount(incoming) !== 1) return undefined;
  return `${host} ${url}`;
}

/** `nodeRequestKey` of the request the app is answering. */
export function nodeContextRequestKey(c: Context): string | undefined {
  const incoming = incomingOf(c);
  return incoming ? nodeRequestKey(incoming) : undefined;
}
