import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { DEMO_FIXTURE_PATH, loadFixtureFile } from "../../src/localnet/index.js";
import { createNodeGateway } from "../../src/platform/node/gateway.js";
import { rawExchange } from "../../testkit/raw-http.js";
import { type Stack, onWorkerd, startStack, describeOnNode } from "../../testkit/stack.js";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH));
});
afterAll(() => stack.close());

const envelope = (result: string) => JSON.stringify({ s: "error", result });

// Node's HTTP adapter (src/platform/node/listener.ts); on Workers the runtime's own server answers these.
describeOnNode("answers written below the app are in the envelope, with CORS", () => {
  it.each([
    ["no Host header", "GET /health HTTP/1.1\r\n\r\n", 400, "Bad request"],
    ["a malformed Host header", "GET /health HTTP/1.1\r\nHost: exa mple\r\n\r\n", 400, "Bad request"],
    ["request target *", "OPTIONS * HTTP/1.1\r\nHost: gateway\r\n\r\n", 400, "Bad request"],
    ["a line that is not HTTP", "HELLO\r\n\r\n", 400, "Bad request"],
    ["a bad header line", "GET /health HTTP/1.1\r\nHost: gateway\r\nBad Header\r\n\r\n", 400, "Bad request"],
    [
      "headers over Node's limit",
      `GET /health HTTP/1.1\r\nHost: g\r\nX-Pad: ${"a".repeat(20_000)}\r\n\r\n`,
      431,
      "Request headers too large",
    ],
  ])("%s", async (_, text, status, message) => {
    const answer = await rawExchange(stack.gateway.url, text);
    expect(answer.status).toBe(status);
    expect(answer.body).toBe(envelope(message));
    expect(answer.headers["content-type"]).toBe("application/json");
    expect(answer.headers["access-control-allow-origin"]).toBe("*");
    expect(answer.headers["cache-control"]).toBe("no-store");
    expect(answer.headers.connection).toBe("close");
  });
});

// Node hands CONNECT requests to "connect" listeners with the raw socket (src/platform/node/listener.ts).
describeOnNode("CONNECT, and every other method Node's parser accepts, gets an envelope answer", () => {
  it.each([
    [
      "CONNECT on a route's path",
      "CONNECT /resolve/plain.sns HTTP/1.1\r\nHost: gateway\r\n\r\n",
      405,
      "Method not allowed",
    ],
    ["CONNECT elsewhere", "CONNECT /nowhere HTTP/1.1\r\nHost: gateway\r\n\r\n", 404, "Not found"],
    [
      "CONNECT to an authority (a proxy request)",
      "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n",
      400,
      "Bad request",
    ],
  ])("%s", async (_, text, status, message) => {
    const answer = await rawExchange(stack.gateway.url, text);
    expect([answer.status, answer.body]).toEqual([status, envelope(message)]);
    expect(answer.headers["content-type"]).toBe("application/json");
    expect(answer.headers["access-control-allow-origin"]).toBe("*");
    if (status === 405) expect(answer.headers.allow).toBe("GET, HEAD, OPTIONS");
  });

  it("every method in http.METHODS, on a route's path and on an authority target", async () => {
    const { METHODS } = await import("node:http");
    for (const method of METHODS.filter((m) => m !== "HEAD" && m !== "OPTIONS")) {
      for (const target of ["/resolve/plain.sns", "example.com:443"]) {
        const answer = await rawExchange(
          stack.gateway.url,
          `${method} ${target} HTTP/1.1\r\nHost: g\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
        );
        expect([method, target, answer.headers["content-type"], answer.body.startsWith('{"s":')]).toEqual([
          method,
          target,
          "application/json",
          true,
        ]);
      }
    }
  });
});

// HEADERS_TIMEOUT_MS is a Node server setting; Workers get requests whole from the edge.
describeOnNode("slow clients", () => {
  it("a socket that never finishes its headers gets 408 in the envelope after HEADERS_TIMEOUT_MS", async () => {
    const slow = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH), { HEADERS_TIMEOUT_MS: "1000" });
    try {
      const answer = await rawExchange(
        slow.gateway.url,
        "GET /health HTTP/1.1\r\nHost: gateway\r\nX-Slow: 1\r\n",
        10_000,
      );
      expect([answer.status, answer.body]).toEqual([408, envelope("Request timeout")]);
      expect(answer.headers["access-control-allow-origin"]).toBe("*");
    } finally {
      await slow.close();
    }
  });
});

describe("405 for every method but GET, HEAD and OPTIONS on known routes", () => {
  const methods = [
    "POST",
    "PUT",
    "PATCH",
    "DELETE",
    "QUERY",
    "TRACE",
    "PROPFIND",
    "PROPPATCH",
    "LOCK",
    "UNLOCK",
    "MKCOL",
    "COPY",
    "MOVE",
    "SEARCH",
    "PURGE",
  ];
  const paths = [
    "/resolve/plain.sns",
    "/safe-resolve/plain.sns",
    "/record-v2/plain/email",
    "/records-v2/plain",
    "/record/a/b",
    "/types/record",
    "/health",
    "/",
  ];
  it.each(methods)("%s", async (method) => {
    for (const path of paths) {
      const answer = await rawExchange(
        stack.gateway.url,
        `${method} ${path} HTTP/1.1\r\nHost: gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
      );
      expect([path, answer.status, answer.body]).toEqual([path, 405, envelope("Method not allowed")]);
      expect(answer.headers.allow).toBe("GET, HEAD, OPTIONS");
      expect(answer.headers["access-control-allow-origin"]).toBe("*");
    }
  });

  it("unknown paths stay 404 whatever the method", async () => {
    const answer = await rawExchange(
      stack.gateway.url,
      "PROPFIND /nowhere HTTP/1.1\r\nHost: g\r\nConnection: close\r\n\r\n",
    );
    expect([answer.status, answer.body]).toEqual([404, envelope("Not found")]);
  });
});

// A browser sends a request only if the preflight listed its method: a path lists the methods it answers
// (src/http/answer/allowed-methods.ts), so nothing it would refuse with 405 is let through, and nothing it takes is held back.
describe("CORS preflights advertise each route's own methods", () => {
  // The target's routes: Workers export no metrics, so no /metrics there.
  const routes = createNodeGateway(
    loadConfig({ LOG_LEVEL: "silent", METRICS: onWorkerd ? "off" : "on" }),
  ).app.routes.filter((r) => r.method !== "ALL");
  const patterns = [...new Set(routes.map((route) => route.path))];
  const TRIED = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "QUERY"];

  it.each(patterns)("%s", async (pattern) => {
    const path = pattern.replace(/:\w+/g, "x");
    const own = routes.filter((route) => route.path === pattern).map((route) => route.method);
    const expected = ["GET", "HEAD", "POST", "OPTIONS"].filter(
      (m) => m === "OPTIONS" || own.includes(m) || (m === "HEAD" && own.includes("GET")),
    );
    const preflight = await stack.get(path, {
      method: "OPTIONS",
      headers: { origin: "https://app.example", "access-control-request-method": "GET" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-methods")).toBe(expected.join(","));
    for (const method of TRIED) {
      const answer = await stack.get(path, { method, ...(method === "POST" && { body: "{}" }) });
      expect([method, answer.status === 405], `${method} ${path}: ${answer.status}`).toEqual([
        method,
        !expected.includes(method),
      ]);
    }
  });

  it("a path no route serves lists no methods (a simple request then reads its 404)", async () => {
    const preflight = await stack.get("/nowhere", {
      method: "OPTIONS",
      headers: { origin: "https://app.example", "access-control-request-method": "GET" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.has("access-control-allow-methods")).toBe(false);
  });
});
