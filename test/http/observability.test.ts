import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { type RunningGateway, startGateway } from "../../src/platform/node/gateway.js";
import { DEMO_FIXTURE_PATH, Ledger, loadFixtureFile } from "../../src/localnet/index.js";
import { type Localnet, startLocalnet } from "../../src/localnet/server.js";
import { compiledEntry, startChildGateway } from "../../testkit/child-gateway.js";
import { captureLog } from "../../testkit/log-capture.js";
import { sampleValue } from "../../testkit/prometheus.js";
import { rawExchange } from "../../testkit/raw-http.js";
import { type Answer, type Stack, request, startStack, describeOnNode } from "../../testkit/stack.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let stack: Stack;

beforeAll(async () => {
  stack = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH), { RPC_TIMEOUT_MS: "500" });
});
afterAll(() => stack.close());
beforeEach(() => {
  stack.localnet.setFault(null);
  stack.localnet.setLatency(0);
});

/** Runs `action`, returns how much `sample` moved meanwhile, per scrape of /metrics. */
async function delta(
  action: () => Promise<unknown>,
  samples: Record<string, [string, Record<string, string>]>,
  on: Stack = stack,
): Promise<Record<string, number>> {
  const read = async () => {
    const { text } = await on.get("/metrics");
    return Object.fromEntries(
      Object.entries(samples).map(([id, [name, labels]]) => [id, sampleValue(text, name, labels)]),
    );
  };
  const before = await read();
  await action();
  const after = await read();
  return Object.fromEntries(Object.keys(samples).map((id) => [id, after[id]! - before[id]!]));
}

describeOnNode("GET /metrics", () => {
  it("answers Prometheus text, outside the envelope, never cached", async () => {
    const answer = await stack.get("/metrics");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(answer.body).toBeUndefined();
    expect(answer.text).toContain("# TYPE sns_gateway_http_requests_total counter");
    // Default process metrics.
    expect(answer.text).toContain("process_cpu_user_seconds_total");
    expect(answer.text).toContain("nodejs_heap_size_used_bytes");
  });

  it("counts requests by route pattern, method and status, with their latency", async () => {
    const moved = await delta(() => stack.get("/resolve/plain.sns"), {
      requests: ["sns_gateway_http_requests_total", { route: "/resolve/:domain", method: "GET", status: "200" }],
      latency: ["sns_gateway_http_request_duration_seconds_count", { route: "/resolve/:domain" }],
      rpcOk: ["sns_gateway_rpc_requests_total", { endpoint: "rpc_url", outcome: "ok" }],
      accountsOk: ["sns_gateway_rpc_calls_total", { method: "getMultipleAccounts", outcome: "ok" }],
      batches: ["sns_gateway_rpc_batch_calls_count", {}],
      accountBatches: ["sns_gateway_rpc_batch_accounts_count", {}],
    });
    expect(moved.requests).toBe(1);
    expect(moved.latency).toBe(1);
    expect(moved.rpcOk).toBeGreaterThanOrEqual(1);
    expect(moved.accountsOk).toBeGreaterThanOrEqual(1);
    expect(moved.batches).toBe(moved.rpcOk);
    expect(moved.accountBatches).toBe(moved.accountsOk);
  });

  it("labels answers no route matched 'unmatched', never with their path or method token", async () => {
    const moved = await delta(
      async () => {
        await stack.get("/no/such/path-xyzzy");
        await stack.get("/resolve/plain.sns", { method: "POST" });
        await rawExchange(
          stack.gateway.url,
          "PROPFIND /nowhere-plugh HTTP/1.1\r\nHost: g\r\nConnection: close\r\n\r\n",
        );
      },
      {
        notFound: ["sns_gateway_http_requests_total", { route: "unmatched", method: "GET", status: "404" }],
        notAllowed: ["sns_gateway_http_requests_total", { route: "unmatched", method: "POST", status: "405" }],
        other: ["sns_gateway_http_requests_total", { route: "unmatched", method: "OTHER", status: "404" }],
      },
    );
    expect(moved).toEqual({ notFound: 1, notAllowed: 1, other: 1 });
    const { text } = await stack.get("/metrics");
    expect(text).not.toContain("xyzzy");
    expect(text).not.toContain("plugh");
    expect(text).not.toContain("PROPFIND");
  });

  it("a JSON-RPC error object: the call is an rpc_error, the HTTP exchange was fine", async () => {
    const moved = await delta(
      async () => {
        stack.localnet.setFault({ kind: "jsonrpc-error", code: -32005, message: "Node is behind" });
        expect((await stack.get("/resolve/plain.sns")).status).toBe(502);
      },
      {
        answered: ["sns_gateway_http_requests_total", { route: "/resolve/:domain", method: "GET", status: "502" }],
        rpcError: ["sns_gateway_rpc_calls_total", { method: "getMultipleAccounts", outcome: "rpc_error" }],
        httpOk: ["sns_gateway_rpc_requests_total", { endpoint: "rpc_url", outcome: "ok" }],
      },
    );
    expect(moved.answered).toBe(1);
    expect(moved.rpcError).toBeGreaterThanOrEqual(1);
    expect(moved.httpOk).toBeGreaterThanOrEqual(1);
  });

  it("an HTTP 503: a transport fault for the call, http_status for the exchange", async () => {
    const moved = await delta(
      async () => {
        stack.localnet.setFault({ kind: "http-status", status: 503 });
        expect((await stack.get("/resolve/plain.sns")).status).toBe(502);
      },
      {
        fault: ["sns_gateway_rpc_calls_total", { method: "getMultipleAccounts", outcome: "transport_fault" }],
        status: ["sns_gateway_rpc_requests_total", { endpoint: "rpc_url", outcome: "http_status" }],
      },
    );
    expect(moved.fault).toBeGreaterThanOrEqual(1);
    expect(moved.status).toBeGreaterThanOrEqual(1);
  });

  it("no answer within RPC_TIMEOUT_MS: a timeout for both", async () => {
    const moved = await delta(
      async () => {
        stack.localnet.setFault({ kind: "hang" });
        expect((await stack.get("/resolve/plain.sns")).status).toBe(502);
      },
      {
        call: ["sns_gateway_rpc_calls_total", { method: "getMultipleAccounts", outcome: "timeout" }],
        exchange: ["sns_gateway_rpc_requests_total", { endpoint: "rpc_url", outcome: "timeout" }],
      },
    );
    expect(moved.call).toBeGreaterThanOrEqual(1);
    expect(moved.exchange).toBeGreaterThanOrEqual(1);
  });

  it("override requests are counted apart from RPC_URL, without their URL", async () => {
    const open = await startStack(new Ledger(), { ALLOW_PRIVATE_RPC_OVERRIDE: "true" });
    try {
      const rpc = encodeURIComponent(`${stack.localnet.url}/v1/override-key-qwerty`);
      const moved = await delta(
        () => open.get(`/resolve/plain.sns?rpc=${rpc}`),
        {
          override: ["sns_gateway_rpc_requests_total", { endpoint: "override", outcome: "ok" }],
          trusted: ["sns_gateway_rpc_requests_total", { endpoint: "rpc_url", outcome: "ok" }],
        },
        open,
      );
      expect(moved.override).toBeGreaterThanOrEqual(1);
      expect(moved.trusted).toBe(0);
      expect((await open.get("/metrics")).text).not.toContain("qwerty");
    } finally {
      await open.close();
    }
  });

  it("counts concurrent identical resolutions as coalesced, and resolve cache hits and misses", async () => {
    const cached = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH), { RESOLVE_CACHE_TTL_MS: "60000" });
    try {
      cached.localnet.setLatency(300);
      const moved = await delta(
        async () => {
          const answers = await Promise.all([cached.get("/resolve/v1-sol.sns"), cached.get("/resolve/v1-sol.sns")]);
          expect(answers.map((a) => a.status)).toEqual([200, 200]);
          expect((await cached.get("/resolve/v1-sol.sns")).status).toBe(200);
        },
        {
          coalesced: ["sns_gateway_coalesced_total", { kind: "resolution" }],
          miss: ["sns_gateway_resolve_cache_total", { result: "miss" }],
          hit: ["sns_gateway_resolve_cache_total", { result: "hit" }],
        },
        cached,
      );
      expect(moved).toEqual({ coalesced: 1, miss: 2, hit: 1 });
    } finally {
      await cached.close();
    }
  });

  it("shows queue depth and in-flight gauges", async () => {
    const { text } = await stack.get("/metrics");
    // The scrape itself is in flight.
    expect(sampleValue(text, "sns_gateway_http_requests_in_flight")).toBe(1);
    expect(sampleValue(text, "sns_gateway_rpc_requests_in_flight")).toBe(0);
    expect(sampleValue(text, "sns_gateway_rpc_queue_depth")).toBe(0);
    // Fixed-label series exist before anything happened to them.
    expect(text).toContain('sns_gateway_coalesced_total{kind="resolution"}');
    expect(text).toContain('sns_gateway_resolve_cache_total{result="hit"}');
  });

  it("METRICS=off: no /metrics route", async () => {
    const off = await startStack(new Ledger(), { METRICS: "off" });
    try {
      const answer = await off.get("/metrics");
      expect(answer).toMatchObject({ status: 404, body: { s: "error", result: "Not found" } });
      expect(answer.headers.get("x-request-id")).toMatch(UUID);
    } finally {
      await off.close();
    }
  });
});

describeOnNode("X-Request-Id", () => {
  it("is generated when absent, on every kind of answer", async () => {
    const answers: Answer[] = [
      await stack.get("/resolve/plain.sns"),
      await stack.get("/nowhere"),
      await stack.get("/resolve/plain.sns", { method: "DELETE" }),
      await stack.get("/resolve/plain.sns", { method: "OPTIONS" }),
      await stack.get("/health", { method: "HEAD" }),
      await stack.get("/resolve/%20"),
      await stack.get("/metrics"),
    ];
    const ids = answers.map((answer) => answer.headers.get("x-request-id"));
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("echoes a sane incoming id, also on RPC failures", async () => {
    const given = "req-42_abc.DEF:7";
    expect(
      (await stack.get("/resolve/plain.sns", { headers: { "X-Request-Id": given } })).headers.get("x-request-id"),
    ).toBe(given);
    stack.localnet.setFault({ kind: "http-status", status: 503 });
    const failed = await stack.get("/resolve/plain.sns", { headers: { "X-Request-Id": given } });
    expect(failed.status).toBe(502);
    expect(failed.headers.get("x-request-id")).toBe(given);
  });

  it.each([
    ["too long", "a".repeat(129)],
    ["with spaces", "two words"],
    ["non-ASCII", "réquest"],
  ])("replaces an incoming id that is %s", async (_, given) => {
    const answer = await stack.get("/health", { headers: { "X-Request-Id": given } });
    expect(answer.headers.get("x-request-id")).toMatch(UUID);
  });
});

describeOnNode("request log", () => {
  let localnet: Localnet;
  let gateway: RunningGateway;
  const log = captureLog();
  const lines = () => log.lines();

  beforeAll(async () => {
    localnet = await startLocalnet({ ledger: await loadFixtureFile(DEMO_FIXTURE_PATH) });
    const config = loadConfig({
      RPC_URL: localnet.url,
      PORT: "0",
      HOST: "127.0.0.1",
      ALLOW_PRIVATE_RPC_OVERRIDE: "true",
    });
    gateway = await startGateway(config, log.logger);
  });
  afterAll(async () => {
    await gateway.close();
    await localnet.close();
  });
  beforeEach(() => {
    log.clear();
    localnet.setFault(null);
  });

  it("writes one line per request: id, method, route pattern, status, duration, RPC reads", async () => {
    const answer = await request(gateway.url, "/resolve/plain.sns", { headers: { "X-Request-Id": "trace-1" } });
    expect(answer.status).toBe(200);
    await new Promise((resolve) => setImmediate(resolve));
    const logged = lines().filter((line) => line.msg === "request");
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      reqId: "trace-1",
      method: "GET",
      route: "/resolve/:domain",
      status: 200,
      rpcOverride: false,
    });
    expect(logged[0]!.ms).toEqual(expect.any(Number));
    expect(logged[0]!.rpcCalls).toBeGreaterThanOrEqual(1);
    expect(logged[0]!.rpcAccounts).toBeGreaterThanOrEqual(1);
  });

  it("a failed request logs its error code under the id it answered with", async () => {
    localnet.setFault({ kind: "http-status", status: 503 });
    const answer = await request(gateway.url, "/resolve/plain.sns");
    expect(answer.status).toBe(502);
    await new Promise((resolve) => setImmediate(resolve));
    const line = lines().find((entry) => entry.msg === "request");
    expect(line).toMatchObject({ reqId: answer.headers.get("x-request-id"), status: 502, error: "RPC_HTTP_STATUS" });
  });

  it("never holds the rpc override URL nor any query string, even when the override fails", async () => {
    const secretPath = "/v2/api-key-S3CR3TPATH";
    const secretQuery = "api-key=S3CR3TQUERY";
    const reachable = `${localnet.url}${secretPath}?${secretQuery}`;
    const closed = await startLocalnet({ ledger: new Ledger() });
    await closed.close();
    const unreachable = `${closed.url}${secretPath}?${secretQuery}`;
    const answers = [
      await request(gateway.url, `/resolve/plain.sns?rpc=${encodeURIComponent(reachable)}&token=S3CR3TPARAM`),
      await request(gateway.url, `/domains/11111111111111111111111111111111?rpc=${encodeURIComponent(reachable)}`),
      await request(gateway.url, `/resolve/plain.sns?rpc=${encodeURIComponent(unreachable)}`),
      await request(gateway.url, `/resolve/plain.sns?rpc=${encodeURIComponent("ftp://S3CR3THOST/x")}`),
      await request(gateway.url, `/nowhere?S3CR3TPARAM=1`),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 502, 400, 404]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines().filter((line) => line.msg === "request")).toHaveLength(answers.length);
    // The failure with a cause is logged in full (warn) too: still nothing of the URL.
    expect(lines().some((line) => line.msg === "request failed")).toBe(true);
    for (const secret of ["S3CR3T", "api-key", "token=", closed.url, localnet.url, "?"])
      expect(log.text()).not.toContain(secret);
  });
});

describeOnNode("the compiled process (npm start)", () => {
  // tsc takes seconds alone and much longer on a busy machine: not inside a test's own time limit.
  beforeAll(() => void compiledEntry(), 180_000);

  it("serves /metrics and logs to stdout without the rpc URL or query strings", async () => {
    const localnet = await startLocalnet({ ledger: await loadFixtureFile(DEMO_FIXTURE_PATH) });
    const child = await startChildGateway({ RPC_URL: localnet.url, ALLOW_PRIVATE_RPC_OVERRIDE: "true" });
    try {
      const rpc = encodeURIComponent(`${localnet.url}/v1/S3CR3TPATH?key=S3CR3TQUERY`);
      const answer = await request(child.url, `/resolve/plain.sns?rpc=${rpc}`, {
        headers: { "X-Request-Id": "child-1" },
      });
      expect(answer.status).toBe(200);
      expect(answer.headers.get("x-request-id")).toBe("child-1");
      const { text } = await request(child.url, "/metrics");
      expect(
        sampleValue(text, "sns_gateway_http_requests_total", {
          route: "/resolve/:domain",
          method: "GET",
          status: "200",
        }),
      ).toBe(1);
      expect(
        sampleValue(text, "sns_gateway_rpc_requests_total", { endpoint: "override", outcome: "ok" }),
      ).toBeGreaterThanOrEqual(1);
      // Lines are written asynchronously: wait for the first request's line.
      await expect.poll(() => child.output().includes('"reqId":"child-1"'), { timeout: 5000 }).toBe(true);
      expect(child.output()).not.toContain("S3CR3T");
      expect(child.output()).not.toContain("/v1/");
    } finally {
      await child.stop();
      await localnet.close();
    }
  });
});
