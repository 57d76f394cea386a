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
