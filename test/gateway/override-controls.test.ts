import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.js";
import {
  DEMO_FIXTURE_PATH,
  type Localnet,
  identity,
  loadFixtureFile,
  startLocalnet,
} from "../../src/localnet/index.js";
import { type Stack, startStack } from "../../testkit/stack.js";

/** A second chain that an `rpc` override may name; counts what reaches it. */
let other: Localnet;
const started: Stack[] = [];
beforeAll(async () => {
  other = await startLocalnet({ ledger: await loadFixtureFile(DEMO_FIXTURE_PATH) });
});
afterAll(async () => {
  await Promise.all(started.map((stack) => stack.close()));
  await other.close();
});

async function stackWith(env: Record<string, string>): Promise<Stack> {
  const stack = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH), {
    ALLOW_PRIVATE_RPC_OVERRIDE: "true",
    ...env,
  });
  started.push(stack);
  return stack;
}

const bob = { s: "ok", result: identity("bob").address };
const invalid = { s: "error", result: "Invalid input" };
const viaOther = (path: string, url = other.url) =>
  `${path}${path.includes("?") ? "&" : "?"}rpc=${encodeURIComponent(url)}`;

describe("RPC_OVERRIDE=off", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await stackWith({ RPC_OVERRIDE: "off" });
  });

  it("refuses every rpc parameter with 400, sending nothing to it", async () => {
    other.resetStats();
    for (const path of [
      "/resolve/plain.sns",
      "/safe-resolve/plain.sns",
      "/record-v2/plain/email",
      "/records-v2/plain?records=email",
    ]) {
      const answer = await stack.get(viaOther(path));
      expect([path, answer.status, answer.body]).toEqual([path, 400, invalid]);
    }
    expect(other.stats.httpRequests).toBe(0);
  });

  it("still validates the path first, and serves requests without rpc", async () => {
    expect((await stack.get(viaOther("/resolve/plain.com"))).body).toEqual({ s: "error", result: "Unsupported TLD" });
    expect((await stack.get(viaOther("/record-key-v2/plain/email"))).status).toBe(200);
    expect((await stack.get("/resolve/plain.sns")).body).toEqual(bob);
    expect((await stack.get("/resolve/plain.sns?rpc=")).body).toEqual(bob);
  });
});

describe("RPC_OVERRIDE_HOSTS", () => {
  it("lets only the listed host names through", async () => {
    const stack = await stackWith({ RPC_OVERRIDE_HOSTS: " LOCALHOST., rpc.example.com" });
    const port = new URL(other.url).port;
    other.resetStats();
    expect((await stack.get(viaOther("/resolve/plain.sns", `http://localhost:${port}`))).body).toEqual(bob);
    expect(other.stats.httpRequests).toBe(1);
    const refused = await stack.get(viaOther("/resolve/plain.sns", `http://127.0.0.1:${port}`));
    expect([refused.status, refused.body]).toEqual([400, invalid]);
    expect(other.stats.httpRequests).toBe(1);
  });
});

describe("RPC_OVERRIDE_RATE_LIMIT", () => {
  it("limits requests with rpc per client IP, in the envelope, and never requests without it", async () => {
    const stack = await stackWith({ RPC_OVERRIDE_RATE_LIMIT: "3" });
    for (let i = 0; i < 3; i++) expect((await stack.get(viaOther("/resolve/plain.sns"))).body).toEqual(bob);
    const limited = await stack.get(viaOther("/resolve/plain.sns"));
    expect([limited.status, limited.body]).toEqual([429, { s: "error", result: "Too many requests" }]);
    expect(limited.headers.get("access-control-allow-origin")).toBe("*");
    expect(limited.headers.get("cache-control")).toBe("no-store");
    expect(limited.headers.get("ratelimit-limit")).toBe("3");
    for (let i = 0; i < 10; i++) expect((await stack.get("/resolve/plain.sns")).body).toEqual(bob);
    // Routes that never read the chain answer as they always do, `rpc` or not: the deprecated
    // record route is a 400 for every request, a key derivation a 200, a 404 and a 405 their own.
    const answers = await Promise.all(
      ["/record/plain/url", "/domain-key/plain", "/health", "/nowhere"].map((path) => stack.get(viaOther(path))),
    );
    expect(answers.map((answer) => answer.status)).toEqual([400, 200, 200, 404]);
    expect(answers.every((answer) => answer.headers.get("ratelimit-limit") === null)).toBe(true);
    expect((await stack.get(viaOther("/resolve/plain.sns"), { method: "DELETE" })).status).toBe(405);
  });

  it("reads the client IP from CLIENT_IP_HEADER only when an operator names it (last hop)", async () => {
    const stack = await stackWith({ RPC_OVERRIDE_RATE_LIMIT: "1", CLIENT_IP_HEADER: "X-Forwarded-For" });
    const from = (chain: string) =>
      stack.get(viaOther("/resolve/plain.sns"), { headers: { "x-forwarded-for": chain } });
    expect((await from("1.1.1.1, 10.0.0.1")).status).toBe(200);
    // Same last hop, whatever the client claims before it.
    expect((await from("9.9.9.9, 10.0.0.1")).status).toBe(429);
    expect((await from("10.0.0.2")).status).toBe(200);

    const direct = await stackWith({ RPC_OVERRIDE_RATE_LIMIT: "1" });
    const spoof = (ip: string) => direct.get(viaOther("/resolve/plain.sns"), { headers: { "x-forwarded-for": ip } });
    expect((await spoof("1.1.1.1")).status).toBe(200);
    expect((await spoof("2.2.2.2")).status).toBe(429);
  });
});

describe("configuration", () => {
  it.each([
    [{ RPC_OVERRIDE: "maybe" }, /RPC_OVERRIDE/],
    [{ RPC_OVERRIDE_HOSTS: "rpc.example.com, bad host" }, /RPC_OVERRIDE_HOSTS/],
    [{ RPC_OVERRIDE_RATE_LIMIT: "-1" }, /RPC_OVERRIDE_RATE_LIMIT/],
    [{ RPC_RATE_LIMIT: "lots" }, /RPC_RATE_LIMIT/],
    [{ CLIENT_IP_HEADER: "x forwarded" }, /CLIENT_IP_HEADER/],
    [{ HEADERS_TIMEOUT_MS: "90000000" }, /HEADERS_TIMEOUT_MS/],
  ])("refuses %o", (env, pattern) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(pattern);
  });

  it("defaults: overrides on, any public host, 1,200 RPC calls a minute per client to overrides and 20,000 to RPC_URL, socket address, 10 s for headers", () => {
    expect(loadConfig({})).toMatchObject({
      rpcOverride: true,
      rpcOverrideHosts: undefined,
      rpcOverrideRateLimit: 1200,
      rpcRateLimit: 20_000,
      clientIpHeader: undefined,
      headersTimeoutMs: 10_000,
    });
  });
});
