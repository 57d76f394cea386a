import type { Context } from "hono";
import ipaddr from "ipaddr.js";
import type { AppEnv } from "../deps.js";

/**
 * The bucket an address belongs to, or undefined when `text` is no address.
 * One client is one bucket however its address is spelled: parsed by
 * ipaddr.js (so `1.2.3.4`, `::ffff:1.2.3.4`, `::ffff:102:304`, `[::ffff:1.2.3.4]`,
 * `1.2.3.4:443` and the hex or long forms ipaddr.js accepts are one address),
 * an IPv4-mapped IPv6 address folded to its IPv4 address, and IPv6 bucketed
 * per /64: one subscriber is routinely given a whole /64, and any address in
 * it is theirs to pick, so a bucket per /128 would give them 2^64 buckets.
 */
export function canonicalClientKey(text: string): string | undefined {
  let value = text.trim();
  if (value.startsWith("[")) {
    // `[v6]` or `[v6]:port`
    const end = value.indexOf("]");
    if (end < 0) return undefined;
    value = value.slice(1, end);
  } else if (value.indexOf(":") > 0 && value.indexOf(":") === value.lastIndexOf(":")) {
    // `v4:port`: one colon is never an IPv6 address.
    value = value.slice(0, value.indexOf(":"));
  }
  // A zone (`fe80::1%eth0`) names the interface, not another client.
  const zone = value.indexOf("%");
  if (zone >= 0) value = value.slice(0, zone);
  if (!ipaddr.isValid(value)) return undefined;
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    address = ipaddr.process(value);
  } catch {
    return undefined;
  }
  if (address.kind() === "ipv4") return address.toString();
  const parts = (address as ipaddr.IPv6).parts;
  return `${parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(":")}::/64`;
}

/**
 * The client a request is counted for (rate limits, fair shares of the
 * bulkheads): the socket's peer, or, only when an operator names a header
 * set by its own proxy (CLIENT_IP_HEADER), the last hop of that header: the
 * one its proxy appended (what came before it the client could write).
 * Other headers are client-controlled and would let anyone pick their own
 * bucket. A header value that is no address falls back to the socket's
 * peer: behind the proxy that is the proxy itself, so every such request
 * shares one bucket and none gets a fresh one by writing garbage; with no
 * proxy in front (a misconfiguration) it is the client's own address.
 */
export function clientKeyOf(
  c: Context<AppEnv>,
  header: string | undefined,
  peerAddress: (c: Context) => string | undefined,
): string {
  const known = c.get("clientKey");
  if (known !== undefined) return known;
  const key = clientKeyFrom(header ? c.req.header(header) : undefined, () => peerAddress(c));
  c.set("clientKey", key);
  return key;
}

/**
 * The client of a request from the value of CLIENT_IP_HEADER (undefined
 * when unset or absent) and its socket's peer (see `clientKeyOf`), for
 * what answers before the app (http/answer/repeat-answer.ts) as for the app.
 */
export function clientKeyFrom(headerValue: string | undefined, peerAddress: () => string | undefined): string {
  const key =
    headerValue === undefined ? undefined : canonicalClientKey(headerValue.slice(headerValue.lastIndexOf(",") + 1));
  if (key !== undefined) return key;
  const peer = peerAddress();
  return (peer !== undefined && canonicalClientKey(peer)) || (peer ?? "unknown");
}

/** `clientKeyOf` with the gateway's settings: what routes pass to their bulkheads. */
export const clientOf =
  (deps: { readonly clientIpHeader: string | undefined; peerAddress(c: Context): string | undefined }) =>
  (c: Context<AppEnv>): string =>
    clientKeyOf(c, deps.clientIpHeader, deps.peerAddress);
