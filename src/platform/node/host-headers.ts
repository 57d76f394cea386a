import type { IncomingMessage } from "node:http";

/**
 * How many `Host` header lines a request carries. Node keeps the first in `headers.host` while the Fetch
 * `Request` the app sees joins them all ("a, b"): with more than one, what chooses the profile
 * (http/frame/legacy-host.ts) and what keys a repeat (request-key.ts) would read different hosts.
 */
export function hostHeaderCount(incoming: IncomingMessage): number {
  const raw = incoming.rawHeaders;
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() === "host") count++;
  return count;
}
