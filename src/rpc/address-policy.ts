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

const v4Of = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);

/**
 * The IPv4 addresses an IPv6 address stands for, when it is one of the
 * forms that carry one: IPv4-mapped (`::ffff:a.b.c.d`), IPv4-translated
 * (`::ffff:0:a.b.c.d`), IPv4-compatible (`::a.b.c.d`), 6to4
 * (`2002:aabb:ccdd::/48`), Teredo (`2001:0:<server>:…:<client inverted>`:
 * both the server and the client) and NAT64's well-known prefix
 * (`64:ff9b::a.b.c.d`). Packets to such an address reach that IPv4 host
 * through a translator or tunnel, so it is classified as that host is.
 * Undefined for any other address. (The local-use NAT64 prefix
 * `64:ff9b:1::/48` is a site's own translator: non-public whatever it carries.)
 */
function embeddedIpv4s(address: ipaddr.IPv6): ipaddr.IPv4[] | undefined {
  const p = address.parts;
  const zero = (from: number, to: number) => p.slice(from, to).every((part) => part === 0);
  if (zero(0, 5) && p[5] === 0xffff) return [v4Of(p[6]!, p[7]!)];
  if (zero(0, 4) && p[4] === 0xffff && p[5] === 0) return [v4Of(p[6]!, p[7]!)];
  // `::` and `::1` are not IPv4-compatible addresses.
  if (zero(0, 6) && (p[6] !== 0 || p[7]! > 1)) return [v4Of(p[6]!, p[7]!)];
  if (p[0] === 0x2002) return [v4Of(p[1]!, p[2]!)];
  if (p[0] === 0x2001 && p[1] === 0) return [v4Of(p[2]!, p[3]!), v4Of(p[6]! ^ 0xffff, p[7]! ^ 0xffff)];
  if (p[0] === 0x64 && p[1] === 0xff9b && zero(2, 6)) return [v4Of(p[6]!, p[7]!)];
  return undefined;
}

/** Public unicast: ipaddr.js's `range()` says `unicast`, and no block listed above holds it. */
const isPublicV4 = (address: ipaddr.IPv4) => address.range() === "unicast" && !inAny(address, blockedV4);

/** True when `address` (an IP literal) is not a public unicast address, nor a form carrying only public IPv4s. */
export function isNonPublicAddress(address: string): boolean {
  const family = ipFamily(address);
  if (family === 4) return !isPublicV4(ipaddr.IPv4.parse(address));
  if (family === 6) {
    const parsed = ipaddr.IPv6.parse(address.toLowerCase().replace(/%.*$/, ""));
    const carried = embeddedIpv4s(parsed);
    if (carried) return !carried.every(isPublicV4);
    return parsed.range() !== "unicast" || inAny(parsed, blockedV6);
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
  const checked = checkedOverride(raw, policy);
  return typeof checked === "string" ? null : checked;
}

/**
 * The rule an `rpc` override breaks, in words that quote nothing of it (it
 * may carry an API key); undefined when the static rules accept it.
 */
export function overrideRefusal(raw: string, policy: RpcUrlPolicy): string | undefined {
  const checked = checkedOverride(raw, policy);
  return typeof checked === "string" ? checked : undefined;
}

function checkedOverride(raw: string, policy: RpcUrlPolicy): URL | string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "not a URL";
  }
  if (url.username || url.password) return "it carries credentials before its host";
  if (policy.allowPrivate) return url.protocol === "https:" || url.protocol === "http:" ? url : "not http or https";
  if (url.protocol !== "https:") return "not https";
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  if (host.startsWith("[") || ipFamily(host) !== 0) return "its host is an IP address, not a name";
  if (BLOCKED_HOSTNAMES.has(host) || host.endsWith(".localhost") || host.endsWith(".internal")) {
    return "its host is a local name";
  }
  if (!host.includes(".")) return "its host is a single-label name";
  return url;
}
