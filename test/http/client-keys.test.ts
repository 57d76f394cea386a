import { afterAll, beforeAll, expect, it } from "vitest";
import { DEMO_FIXTURE_PATH, loadFixtureFile } from "../../src/localnet/index.js";
import { canonicalClientKey } from "../../src/http/clients/client-key.js";
import { type Stack, startStack, describeOnNode } from "../../testkit/stack.js";

/** Spellings of one IPv4 address a proxy header (or a client writing it) may carry. */
const ONE_IPV4 = [
  "198.51.100.23",
  "::ffff:198.51.100.23",
  "::FFFF:c633:6417",
  "[::ffff:198.51.100.23]",
  " 198.51.100.23:443",
  "0xc6.0x33.0x64.0x17",
];

describeOnNode("canonicalClientKey", () => {
  it("gives every spelling of one IPv4 address one key, IPv4-mapped IPv6 folded to IPv4", () => {
    expect(new Set(ONE_IPV4.map(canonicalClientKey))).toEqual(new Set(["198.51.100.23"]));
  });

  it("buckets IPv6 per /64: addresses of one /64 share a key, of different /64s do not", () => {
    const a = canonicalClientKey("2001:db8:1:2::1");
    expect(a).toBe("2001:db8:1:2::/64");
    expect(canonicalClientKey("2001:DB8:1:2:ffff:ffff:ffff:fffe")).toBe(a);
    expect(canonicalClientKey("[2001:db8:1:2::9]:8080")).toBe(a);
    expect(canonicalClientKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(canonicalClientKey("2001:db8:1:3::1")).not.toBe(a);
  });

  it("answers undefined for what is no address", () => {
    for (const text of ["", "unknown", "1.2.3.4.5", "[::1", "example.com", "1.2.3.4, 5.6.7.8", "::g"])
      expect(canonicalClientKey(text)).toBeUndefined();
  });
});

/**
 * Over real HTTP, behind a proxy that sets `X-Real-IP` (CLIENT_IP_HEADER): spellings of one address
 * draw on one client's RPC calls (RPC_RATE_LIMIT), an IPv6 /64 is one client, and a header value that
 * is no address counts as the socket's peer (the proxy: one shared bucket).
 */
describeOnNode("CLIENT_IP_HEADER: one client, one bucket", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH), {
      CLIENT_IP_HEADER: "X-Real-IP",
      RPC_RATE_LIMIT: "10",
    });
  });
  afterAll(() => stack?.close());

  const from = (ip: string, name = "plain") => stack.get(`/resolve/${name}.sns`, { headers: { "x-real-ip": ip } });

  /** Requests of `ips` in turn until `count` were sent: their statuses. */
  async function statuses(ips: readonly string[], count: number): Promise<number[]> {
    const seen: number[] = [];
    for (let i = 0; i < count; i++) seen.push((await from(ips[i % ips.length]!)).status);
    return seen;
  }

  it("6 spellings of one IPv4 address share one allowance: at most 10 calls' worth of 30 requests pass", async () => {
    const seen = await statuses(ONE_IPV4, 30);
    const passed = seen.filter((status) => status === 200).length;
    expect(passed).toBeGreaterThan(0);
    expect(passed).toBeLessThanOrEqual(10);
    expect(seen.slice(-6)).toEqual([429, 429, 429, 429, 429, 429]);
  });

  it("two IPv6 addresses of one /64 share one allowance; another /64 has its own", async () => {
    const seen = await statuses(["2001:db8:aa:1::1", "2001:db8:aa:1:ffff::2"], 30);
    expect(seen.slice(-2)).toEqual([429, 429]);
    expect((await from("2001:db8:aa:2::1")).status).toBe(200);
  });

  it("a header value that is no address counts as the proxy's (the socket's peer), one bucket for all of them", async () => {
    const seen = await statuses(["garbage", "not an address", "1.2.3.4.5"], 30);
    expect(seen.slice(-3)).toEqual([429, 429, 429]);
    // The loopback peer is that bucket: a request without the header is in it too.
    expect((await stack.get("/resolve/plain.sns")).status).toBe(429);
    expect((await from("192.0.2.77")).status).toBe(200);
  });
});
