import { afterAll, beforeAll, expect, it } from "vitest";
import { DEMO_FIXTURE_PATH, loadFixtureFile } from "../../src/localnet/index.js";
import { rawExchange } from "../../testkit/raw-http.js";
import { type Stack, startStack, describeOnNode } from "../../testkit/stack.js";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH), {
    RPC_OVERRIDE_RATE_LIMIT: "100",
    RPC_RATE_LIMIT: "1000",
    ALLOW_PRIVATE_RPC_OVERRIDE: "true",
  });
});
afterAll(() => stack.close());

/** The header lines of an answer as written on the wire, with the values that change from answer to answer masked. */
async function headLines(method: string, path: string, extra = ""): Promise<string[]> {
  const answer = await rawExchange(
    stack.gateway.url,
    `${method} ${path} HTTP/1.1\r\nHost: gateway\r\n${extra}Connection: close\r\n\r\n`,
  );
  return answer.headerLines.map((line) =>
    line
      .replace(/^(x-request-id|Date|ratelimit-reset|ratelimit-remaining): .*/i, "$1: …")
      .replace(/^(content-length): \d+$/i, "$1: n"),
  );
}

// The bytes Node's adapter writes: names, case and order (every answer carries a plain record from
// src/http/answer/headers.ts, lower case and sorted as a Headers copy lists them, then what Node adds).
describeOnNode("answer headers on the wire", () => {
  it.each([
    [
      "a success",
      "GET",
      "/resolve/plain.sns",
      "",
      [
        "access-control-allow-origin: *",
        "cache-control: no-store",
        "content-type: application/json",
        "ratelimit-limit: 1000",
        "ratelimit-policy: 1000;w=60",
        "ratelimit-remaining: …",
        "ratelimit-reset: …",
        "x-context-slot: 300000000",
        "x-request-id: …",
        "Content-Length: n",
        "Date: …",
        "Connection: close",
      ],
    ],
    [
      "a shared success",
      "GET",
      "/types/record",
      "",
      [
        "access-control-allow-origin: *",
        "cache-control: public, max-age=10, stale-while-revalidate=180, stale-if-error=0",
        "content-type: application/json",
        "x-request-id: …",
        "Content-Length: n",
        "Date: …",
        "Connection: close",
      ],
    ],
    [
      "an error",
      "GET",
      "/resolve/nobody.sns",
      "",
      [
        "access-control-allow-origin: *",
        "cache-control: no-store",
        "content-type: application/json",
        "ratelimit-limit: 1000",
        "ratelimit-policy: 1000;w=60",
        "ratelimit-remaining: …",
        "ratelimit-reset: …",
        "x-context-slot: 300000000",
        "x-request-id: …",
        "Content-Length: n",
        "Date: …",
        "Connection: close",
      ],
    ],
    [
      "an unknown path",
      "GET",
      "/nowhere",
      "",
      [
        "access-control-allow-origin: *",
        "cache-control: no-store",
        "content-type: application/json",
        "x-request-id: …",
        "Content-Length: n",
        "Date: …",
        "Connection: close",
      ],
    ],
    [
      "a 405",
      "DELETE",
      "/resolve/plain.sns",
      "",
      [
        "access-control-allow-origin: *",
        "allow: GET, HEAD, OPTIONS",
        "cache-control: no-store",
        "content-type: application/json",
        "x-request-id: …",
        "content-length: n",
        "Date: …",
        "Connection: close",
      ],
    ],
    [
      "a HEAD",
      "HEAD",
      "/health",
      "",
      [
        "access-control-allow-origin: *",
        "cache-control: no-store",
        "content-type: application/json",
        "x-request-id: …",
        "Date: …",
        "Connection: close",
      ],
    ],
    [
      "a preflight",
      "OPTIONS",
      "/resolve/plain.sns",
      "Access-Control-Request-Headers: x-a, x-b\r\n",
      [
        "access-control-allow-headers: x-a,x-b",
        "access-control-allow-methods: GET,HEAD,OPTIONS",
        "access-control-allow-origin: *",
        "vary: Access-Control-Request-Headers",
        "x-request-id: …",
        "content-type: text/plain; charset=UTF-8",
        "Date: …",
        "Connection: close",
      ],
    ],
    [
      "metrics",
      "GET",
      "/metrics",
      "",
      [
        "access-control-allow-origin: *",
        "cache-control: no-store",
        "content-type: text/plain; version=0.0.4; charset=utf-8",
        "x-request-id: …",
        "Content-Length: n",
        "Date: …",
        "Connection: close",
      ],
    ],
  ])("%s", async (_, method, path, extra, expected) => {
    expect(await headLines(method, path, extra)).toEqual(expected);
  });

  it("a request naming RPC_URL itself as `rpc` is counted as one without: RPC_RATE_LIMIT's RateLimit-* headers", async () => {
    const rpc = encodeURIComponent(stack.localnet.url);
    expect(await headLines("GET", `/resolve/plain.sns?rpc=${rpc}`, "")).toEqual([
      "access-control-allow-origin: *",
      "cache-control: no-store",
      "content-type: application/json",
      "ratelimit-limit: 1000",
      "ratelimit-policy: 1000;w=60",
      // RPC calls left when the request was let in (the limit counts calls, not requests).
      "ratelimit-remaining: …",
      "ratelimit-reset: …",
      "x-context-slot: 300000000",
      "x-request-id: …",
      "Content-Length: n",
      "Date: …",
      "Connection: close",
    ]);
  });

  it("a 405 naming `rpc` is not counted by the override rate limit (its route reads nothing)", async () => {
    const rpc = encodeURIComponent(stack.localnet.url);
    expect(await headLines("PROPFIND", `/resolve/plain.sns?rpc=${rpc}`, "")).toEqual([
      "access-control-allow-origin: *",
      "allow: GET, HEAD, OPTIONS",
      "cache-control: no-store",
      "content-type: application/json",
      "x-request-id: …",
      "content-length: n",
      "Date: …",
      "Connection: close",
    ]);
  });
});
