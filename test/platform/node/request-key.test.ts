import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { nodeRequestKey } from "../../../src/platform/node/request-key.js";

/** A request as Node parses it: `headers` joined, `rawHeaders` each line as sent. */
const incoming = (method: string, url: string, ...hosts: string[]) =>
  ({
    method,
    url,
    headers: hosts.length === 0 ? {} : { host: hosts[0] },
    rawHeaders: hosts.flatMap((host) => ["Host", host]),
  }) as unknown as IncomingMessage;

describe("nodeRequestKey", () => {
  it("keys a GET by its Host and raw target, as sent", () => {
    expect(nodeRequestKey(incoming("GET", "/resolve/plain.sns", "gw:8080"))).toBe("gw:8080 /resolve/plain.sns");
    expect(nodeRequestKey(incoming("GET", "/resolve/PLAIN.sns", "gw:8080"))).toBe("gw:8080 /resolve/PLAIN.sns");
    expect(nodeRequestKey(incoming("GET", "/resolve/plain.sns", "other"))).not.toBe(
      nodeRequestKey(incoming("GET", "/resolve/plain.sns", "gw:8080")),
    );
  });

  it.each([
    ["HEAD", incoming("HEAD", "/resolve/plain.sns", "gw")],
    ["OPTIONS", incoming("OPTIONS", "/resolve/plain.sns", "gw")],
    ["a query", incoming("GET", "/resolve/plain.sns?rpc=https://x", "gw")],
    ["an empty query", incoming("GET", "/resolve/plain.sns?", "gw")],
    ["no Host", incoming("GET", "/resolve/plain.sns")],
    ["two Hosts", incoming("GET", "/resolve/plain.sns", "legacy.example", "gw")],
  ])("keys nothing with %s: the app must see it", (_, request) => {
    expect(nodeRequestKey(request)).toBeUndefined();
  });
});
