import type { Context } from "hono";
import { describe, expect, it } from "vitest";
import { nodeRequestHeader } from "../../../src/platform/node/request-header.js";

/** A context as @hono/node-server hands it to the app: the parsed IncomingMessage under `env.incoming`. */
const contextWith = (rawHeaders: string[]) => ({ env: { incoming: { rawHeaders } } }) as unknown as Context;

/** What `c.req.header(name)` reads: a `Headers` built from the raw fields, as @hono/node-server builds it. */
function viaHeaders(rawHeaders: string[], name: string): string | undefined {
  const pairs: [string, string][] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) pairs.push([rawHeaders[i]!, rawHeaders[i + 1]!]);
  return new Headers(pairs).get(name) ?? undefined;
}

describe("nodeRequestHeader", () => {
  it.each([
    ["absent", ["Host", "g"]],
    ["one field, any case", ["Host", "g", "X-Request-ID", "abc"]],
    ["repeated fields, joined in order", ["x-request-id", "a", "Host", "g", "X-Request-Id", "b"]],
    ["outer whitespace", ["x-request-id", " \tabc \t"]],
    ["inner whitespace kept", ["x-request-id", "two  words"]],
    ["an empty field", ["x-request-id", ""]],
    ["an empty field among others", ["x-request-id", "", "x-request-id", "b"]],
    ["non-ASCII kept as is", ["x-request-id", "r\u00e9quest\u00a0"]],
    ["a longer name with the same prefix", ["x-request-id-2", "no"]],
  ])("reads what Headers.get reads: %s", (_, rawHeaders) => {
    expect(nodeRequestHeader(contextWith(rawHeaders), "x-request-id")).toBe(viaHeaders(rawHeaders, "x-request-id"));
  });

  it("reads what Headers.get reads over 2,000 generated header lists", () => {
    const names = ["x-request-id", "X-Request-Id", "X-REQUEST-ID", "x-request-id-2", "x-request", "host", "Accept"];
    const values = ["", " ", "a", " \tb\t ", "c d", "r\u00e9q", "trace-42", "\u00a0x\u00a0", ",", "a,b"];
    let seed = 11;
    const draw = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return Math.floor((seed / 2 ** 31) * n);
    };
    for (let i = 0; i < 2000; i++) {
      const raw: string[] = [];
      for (let fields = draw(6); fields > 0; fields--)
        raw.push(names[draw(names.length)]!, values[draw(values.length)]!);
      expect(nodeRequestHeader(contextWith(raw), "x-request-id"), JSON.stringify(raw)).toBe(
        viaHeaders(raw, "x-request-id"),
      );
    }
  });

  it("falls back to the request's own headers outside Node's adapter", () => {
    const c = { env: {}, req: { header: (name: string) => `via ${name}` } } as unknown as Context;
    expect(nodeRequestHeader(c, "x-request-id")).toBe("via x-request-id");
  });
});
