import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_FIXTURE_PATH, identity, loadFixtureFile } from "../../src/localnet/index.js";
import { getAsHost } from "../../testkit/host-request.js";
import { rawExchange } from "../../testkit/raw-http.js";
import { type Answer, type Stack, onWorkerd, startStack } from "../../testkit/stack.js";

// The per-host switch (LEGACY_HOSTS) on both targets: a listed Host gets the retired hosts' API, any other
// Host keeps v1 exactly; matching ignores case and port.

const key = (name: string) => identity(name).address;

let stack: Stack;
let everyHost: Stack;
/** The same chain without LEGACY_HOSTS. */
let v1Only: Stack;

beforeAll(async () => {
  [stack, everyHost] = await Promise.all([
    startStack(await loadFixtureFile(DEMO_FIXTURE_PATH), { LEGACY_HOSTS: "sdk-proxy.example, old.example." }),
    startStack(await loadFixtureFile(DEMO_FIXTURE_PATH), { LEGACY_HOSTS: "*" }),
  ]);
  v1Only = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH));
});
afterAll(() => Promise.all([stack.close(), everyHost.close(), v1Only.close()]));

/** `path` on `on`'s gateway, sent with the Host header `host`. */
const getOn = (on: Stack, path: string, host: string): Promise<Answer> => getAsHost(on.gateway.url, path, host);

describe("LEGACY_HOSTS", () => {
  it("a listed host answers a bare label (legacy); another host answers v1's 400 Unsupported TLD", async () => {
    const legacy = await getOn(stack, "/resolve/plain", "sdk-proxy.example");
    expect(legacy.status).toBe(200);
    expect(legacy.body).toEqual({ s: "ok", result: key("bob") });
    const v1 = await getOn(stack, "/resolve/plain", "gateway.example");
    expect(v1.status).toBe(400);
    expect(v1.body).toEqual({ s: "error", result: "Unsupported TLD" });
  });

  it("matches the host case-insensitively, without its port or trailing dot", async () => {
    for (const host of ["SDK-Proxy.Example", "sdk-proxy.example:8443", "old.example", "old.example.:80"]) {
      const answer = await getOn(stack, "/resolve/plain", host);
      expect(answer.body, host).toEqual({ s: "ok", result: key("bob") });
    }
  });

  it("an absent name is 200 Domain not found on a listed host, 404 on another", async () => {
    const legacy = await getOn(stack, "/resolve/nobody-registered-this", "sdk-proxy.example");
    expect([legacy.status, legacy.body]).toEqual([200, { s: "error", result: "Domain not found" }]);
    const v1 = await getOn(stack, "/resolve/nobody-registered-this.sns", "gateway.example");
    expect([v1.status, v1.body]).toEqual([404, { s: "error", result: "Domain not found" }]);
  });

  it("unknown paths: plain-text 404 on a listed host, v1's JSON 404 on another", async () => {
    const legacy = await getOn(stack, "/safe-resolve/plain.sns", "sdk-proxy.example");
    expect([legacy.status, legacy.text]).toEqual([404, "404 Not Found"]);
    expect(legacy.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(legacy.headers.get("access-control-allow-origin")).toBe("*");
    const v1 = await getOn(stack, "/safe-resolve/plain.sns", "gateway.example");
    expect([v1.status, v1.body]).toEqual([200, { s: "ok", result: key("bob") }]);
  });

  it("`*` serves every host with the legacy API", async () => {
    for (const host of ["anything.example", "127.0.0.1"]) {
      const answer = await getOn(everyHost, "/favorite-domain/" + key("3A1Eo6P-none"), host);
      expect(answer.body, host).toEqual({ s: "error", result: "Invalid domain input" });
    }
    expect((await everyHost.get("/resolve/plain")).body).toEqual({ s: "ok", result: key("bob") });
  });

  it("`*` leaves /health, /ready and /metrics to v1 (the retired hosts had none of them)", async () => {
    for (const path of ["/health", "/ready"]) {
      const [legacy, plain] = await Promise.all([getOn(everyHost, path, "anything.example"), v1Only.get(path)]);
      expect([legacy.status, legacy.headers.get("content-type")], path).toEqual([
        plain.status,
        plain.headers.get("content-type"),
      ]);
      expect(legacy.status, path).not.toBe(404);
    }
    const metrics = await getOn(everyHost, "/metrics", "anything.example");
    expect(metrics.status).toBe((await v1Only.get("/metrics")).status);
    if (!onWorkerd) expect(metrics.status).toBe(200);
  });

  /** A request to every v1 route, successes and failures, and to what no route serves. */
  const V1_REQUESTS: readonly [string, RequestInit?][] = [
    ["/"],
    ["/resolve/plain.sns"],
    ["/resolve/plain"],
    ["/resolve/nobody-registered-this.sns"],
    ["/safe-resolve/bonfida.sns"],
    ["/domain-key/dex.bonfida"],
    ["/reverse-key/dex.bonfida"],
    ["/reverse-lookup/" + key("bob")],
    ["/domains/" + key("carol")],
    ["/primary-domain/" + key("bob")],
    ["/favorite-domain/" + key("3A1Eo6P-none")],
    ["/multiple-primary-domains/" + [key("alice"), key("bob")].join(",")],
    ["/subdomains/bonfida"],
    ["/record-key-v2/plain/url"],
    ["/record-v2/plain/email"],
    ["/records-v2/plain?records=email,BTC"],
    ["/record/plain/SOL"],
    ["/records/plain"],
    ["/types/record"],
    ["/register?buyer=" + key("bob") + "&domain=example&space=1000"],
    ["/create-subdomain?owner=" + key("bob") + "&subdomain=team.plain"],
    ["/twitter/get-key-by-handle/bob"],
    ["/resolve/plain.sns", { method: "POST" }],
    ["/resolve/plain.sns", { method: "OPTIONS", headers: { "access-control-request-headers": "x-a" } }],
    ["/openapi.json"],
  ];

  it("a gateway with LEGACY_HOSTS answers another host exactly as a gateway without it", async () => {
    const comparable = (answer: Answer) => ({
      status: answer.status,
      text: answer.text,
      // The request id is per request; the client's remaining allowance depends on what it asked before.
      headers: [...answer.headers].filter(
        ([name]) => !["x-request-id", "date", "ratelimit-remaining", "ratelimit-reset"].includes(name),
      ),
    });
    for (const [path, init] of V1_REQUESTS) {
      const [listed, plain] = await Promise.all([stack.get(path, init), v1Only.get(path, init)]);
      expect(comparable(listed), `${init?.method ?? "GET"} ${path}`).toEqual(comparable(plain));
    }
  });

  it("a v1 answer kept for repeats (RESOLVE_CACHE_TTL_MS) is never given to a listed host", async () => {
    const cached = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH), {
      LEGACY_HOSTS: "sdk-proxy.example",
      RESOLVE_CACHE_TTL_MS: "60000",
    });
    try {
      for (let i = 0; i < 3; i++) {
        const v1 = await getOn(cached, "/resolve/nobody-registered-this.sns", "gateway.example");
        expect(v1.status).toBe(404);
      }
      const legacy = await getOn(cached, "/resolve/nobody-registered-this.sns", "sdk-proxy.example");
      expect([legacy.status, legacy.body]).toEqual([200, { s: "error", result: "Domain not found" }]);
    } finally {
      await cached.close();
    }
  });

  it("a request with two Host headers is 400, and teaches repeats nothing a listed host is later given", async () => {
    const cached = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH), {
      LEGACY_HOSTS: "sdk-proxy.example",
      RESOLVE_CACHE_TTL_MS: "60000",
    });
    try {
      const twoHosts =
        "GET /resolve/Plain.sns HTTP/1.1\r\nHost: sdk-proxy.example\r\nHost: gateway.example\r\nConnection: close\r\n\r\n";
      for (let i = 0; i < 2; i++) {
        const answer = await rawExchange(cached.gateway.url, twoHosts);
        // workerd refuses it itself, before the Worker (it cannot make a URL of the joined hosts).
        if (onWorkerd) expect(answer.status).toBeGreaterThanOrEqual(400);
        else expect([answer.status, JSON.parse(answer.body)]).toEqual([400, { s: "error", result: "Bad request" }]);
      }
      // The legacy profile reads `Plain` as it is: no such account (v1 would lowercase it to bob's `plain`).
      const legacy = await getOn(cached, "/resolve/Plain.sns", "sdk-proxy.example");
      expect([legacy.status, legacy.body]).toEqual([200, { s: "error", result: "Domain not found" }]);
    } finally {
      await cached.close();
    }
  });
});
