import { describe, expect, it } from "vitest";
import { checkRpcOverride, isNonPublicAddress } from "../../src/rpc/address-policy.js";

const strict = { allowPrivate: false };

describe("rpc override URL policy", () => {
  it.each([
    "https://api.mainnet-beta.solana.com",
    "https://rpc.example.com:8443/path?api-key=abc",
    "https://RPC.Example.COM./",
  ])("accepts public https URL %s", (url) => {
    expect(checkRpcOverride(url, strict)).not.toBeNull();
  });

  it.each([
    ["plain http", "http://rpc.example.com"],
    ["file scheme", "file:///etc/passwd"],
    ["not a URL", "not a url"],
    ["localhost", "https://localhost:8899"],
    ["localhost subdomain", "https://foo.localhost"],
    ["loopback literal", "https://127.0.0.1"],
    ["decimal loopback", "https://2130706433/"],
    ["hex loopback", "https://0x7f.0.0.1/"],
    ["octal loopback", "https://0177.0.0.1/"],
    ["short loopback", "https://127.1/"],
    ["IPv6 loopback", "https://[::1]/"],
    ["mapped IPv6", "https://[::ffff:127.0.0.1]/"],
    ["metadata IP", "https://169.254.169.254/latest/meta-data"],
    ["metadata name", "https://metadata.google.internal/"],
    ["private IP", "https://10.0.0.1/"],
    ["public IP literal", "https://1.1.1.1/"],
    ["single-label name", "https://intranet/"],
    ["credentials", "https://user:pass@rpc.example.com/"],
  ])("refuses %s", (_, url) => {
    expect(checkRpcOverride(url, strict)).toBeNull();
  });

  it("lets operators opt in to private and plain-http endpoints", () => {
    expect(checkRpcOverride("http://127.0.0.1:8899", { allowPrivate: true })?.href).toBe("http://127.0.0.1:8899/");
    expect(checkRpcOverride("file:///etc/passwd", { allowPrivate: true })).toBeNull();
  });
});

describe("address classification", () => {
  it.each([
    "127.0.0.1",
    "10.1.2.3",
    "172.16.0.1",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "::1",
    "::",
    "fe80::1",
    "fd00::1",
    "fd00:ec2::254",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:a9fe:a9fe",
  ])("%s is not public", (address) => {
    expect(isNonPublicAddress(address)).toBe(true);
  });

  it.each(["1.1.1.1", "8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8"])("%s is public", (address) => {
    expect(isNonPublicAddress(address)).toBe(false);
  });
});

/**
 * IPv6 forms that carry an IPv4, each carrying a private or metadata one (refused) and a public one
 * (classified as that IPv4 is). Teredo carries the client inverted: 2001:0:<server>:<flags>:<port>:<~client>.
 */
const CARRIERS: [form: string, nonPublic: string, publicForm: string][] = [
  ["IPv4-mapped", "::ffff:169.254.169.254", "::ffff:8.8.8.8"],
  ["IPv4-mapped, hex", "::ffff:a9fe:a9fe", "::ffff:808:808"],
  ["IPv4-translated (RFC 6145)", "::ffff:0:a9fe:a9fe", "::ffff:0:808:808"],
  ["IPv4-compatible", "::a9fe:a9fe", "::808:808"],
  ["IPv4-compatible, loopback", "::127.0.0.1", "::8.8.4.4"],
  ["6to4 of the metadata address", "2002:a9fe:a9fe::1", "2002:808:808::1"],
  ["6to4 of a private address", "2002:0a00:0001:1::5", "2002:0101:0101::"],
  ["Teredo, loopback client", "2001:0:4136:e378:8000:63bf:80ff:fffe", "2001:0:4136:e378:8000:63bf:f7f7:f7f7"],
  ["Teredo, metadata client", "2001:0:4136:e378::5601:5601", "2001:0:4136:e378::f7f7:f7f7"],
  ["Teredo, private server", "2001:0:a00:1::f7f7:f7f7", "2001:0:808:808::f7f7:f7f7"],
  ["NAT64 well-known prefix", "64:ff9b::a9fe:a9fe", "64:ff9b::808:808"],
  ["NAT64 well-known prefix, dotted", "64:ff9b::10.0.0.1", "64:ff9b::1.1.1.1"],
];

describe("IPv6 forms carrying an IPv4 are classified as that IPv4", () => {
  it.each(CARRIERS)("%s: %s is not public, %s is", (_, nonPublic, publicForm) => {
    expect(isNonPublicAddress(nonPublic)).toBe(true);
    expect(isNonPublicAddress(publicForm)).toBe(false);
  });

  it("the local-use NAT64 prefix (64:ff9b:1::/48) is a site's own translator: never public", () => {
    expect(isNonPublicAddress("64:ff9b:1::808:808")).toBe(true);
    expect(isNonPublicAddress("64:ff9b:1:a9fe:a9:fe00::")).toBe(true);
  });

  it.each(CARRIERS)("%s: refused at the URL check in every spelling", (_, nonPublic, publicForm) => {
    for (const address of [nonPublic, publicForm]) {
      expect(checkRpcOverride(`https://[${address}]/`, strict)).toBeNull();
      expect(checkRpcOverride(`https://[${address}]:8443/rpc`, strict)).toBeNull();
    }
  });
});
