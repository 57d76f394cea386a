import ipaddr from "ipaddr.js";

type Subnet = readonly [ipaddr.IPv4, number] | readonly [ipaddr.IPv6, number];

/**
 * Address ranges an attacker-supplied RPC URL must never reach: loopback,
 * private, link-local (cloud metadata lives there), CGNAT, and other
 * non-public blocks.
 */
const blockedV4 = [
  "0.0.0.0/8",
  "10.0.0.0/8",
  "100.64.0.0/10",
  "127.0.0.0/8",
  "169.254.0.0/16",
  "172.16.0.0/12",
  "192.0.0.0/24",
  "192.0.2.0/24",
  "192.168.0.0/16",
  "198.18.0.0/15",
  "198.51.100.0/24",
  "203.0.113.0/24",
  "224.0.0.0/4",
  "240.0.0.0/4",
].map((cidr) => ipaddr.IPv4.parseCIDR(cidr) as Subnet);
const blockedV6 = [
  "::/128",
  "::1/128",
  "64:ff9b::/96",
  "64:ff9b:1::/48",
  "100::/64",
  "2001:db8::/32",
  "fc00::/7",
  "fe80::/10",
  "fec0::/10",
  "ff00::/8",
].map((cidr) => ipaddr.IPv6.parseCIDR(cidr) as Subnet);

/** 4 or 6 when `text` is an IP literal as Node's `net.isIP` reads them (dotted quads only), else 0. */
export function ipFamily(text: string): 0 | 4 | 6 {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return 4;
  if (text.includes(":") && ipaddr.IPv6.isValid(text)) return 6;
  return 0;
}

const inAny = (address: ipaddr.IPv4 | ipaddr.IPv6, subnets: readonly Subnet[]) =>
  subnets.some((subnet) => address.match(subnet as [ipaddr.IPv4 | ipaddr.IPv6, number]));

/** Embedded IPv4 of an IPv4-mapped or IPv4-compatible IPv6 address, if any. */
function embeddedIpv4(address: string): string | null {
  const match = /^::(?:ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (match) return match[1]!;
  const hex = /^::(?:ffff:)?([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return null;
  const high = parseInt(hex[1]!, 16);
  const low = parseInt(hex[2]!, 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** True when `address` (an IP literal) is not a public unicast address. */
export function isNonPublicAddress(address: string): boolean {
  const family = ipFamily(address);
  if (family === 4) return inAny(ipaddr.IPv4.parse(address), blockedV4);
  if (family === 6) {
    const bare = address.toLowerCase().replace(/%.*$/, "");
    const v4 = embeddedIpv4(bare);
    if (v4) return inAny(ipaddr.IPv4.parse(v4), blockedV4);
    return inAny(ipaddr.IPv6.parse(bare), blockedV6);
  }
  return true;
}

const BLOCKED_HOSTNAMES = new Set(["localhost", "metadata", "metadata.google.internal", "instance-data"]);

export interface RpcUrlPolicy {
  /** Lifts every restriction: for local testing only. */
  readonly allowPrivate: boolean;
}

/**
 * Parses an `rpc` override and applies the static rules: https only, no IP
 * literals (the WHATWG parser already turns decimal, octal and hex spellings
 * of IPv4 into dotted quads), no localhost names. Returns the URL to use, or
 * null when it is refused. DNS answers are checked at connect time.
 */
export function checkRpcOverride(raw: string, policy: RpcUrlPolicy): URL | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.username || url.password) return null;
  if (policy.allowPrivate) return url.protocol === "https:" || url.protocol === "http:" ? url : null;
  if (url.protocol !== "https:") return null;
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  if (host.startsWith("[") || ipFamily(host) !== 0) return null;
  if (BLOCKED_HOSTNAMES.has(host) || host.endsWith(".localhost") || host.endsWith(".internal")) return null;
  if (!host.includes(".")) return null;
  return url;
}
