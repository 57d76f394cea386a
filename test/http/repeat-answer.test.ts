import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { DEMO_FIXTURE_PATH, loadFixtureFile } from "../../src/localnet/index.js";
import { type Localnet, startLocalnet } from "../../src/localnet/server.js";
import { getConnInfo } from "@hono/node-server/conninfo";
import { type RunningGateway, startGateway } from "../../src/platform/node/gateway.js";
import { captureLog } from "../../testkit/log-capture.js";
import { sampleValue } from "../../testkit/prometheus.js";
import { rawExchange } from "../../testkit/raw-http.js";
import { type Answer, request, describeOnNode } from "../../testkit/stack.js";

// With the resolve cache on, Node answers a repeated `/resolve` request from
// the cache before the app (ResolveRepeats, src/http/answer/resolve-repeats.ts). Those answers must be the
// app's, byte for byte, counted and logged the same: each case below
// compares an answer given before the app with one the app gave for the same
// cache entry (a query the app ignores sends a request past the shortcut).

/** Headers that differ between any two answers (`age` by a second when they straddle one). */
const PER_ANSWER = new Set(["date", "x-request-id", "ratelimit-reset", "age"]);
const stableHeaders = (answer: Answer) => [...answer.headers].filter(([name]) => !PER_ANSWER.has(name));

describeOnNode("repeated /resolve requests answered before the app", () => {
  let localnet: Localnet;
  let gateway: RunningGateway;
  const log = captureLog();
  const requestLines = () => log.lines().filter((line) => line.msg === "request");
  const get = (path: string, init?: RequestInit) => request(gateway.url, path, init);
  const metrics = async () => (await get("/metrics")).text;
  const flushLog = () => new Promise((resolve) => setImmediate(resolve));
  const keyOf = (path: string) => `${new URL(gateway.url).host} ${path}`;

  beforeAll(async () => {
    localnet = await startLocalnet({ ledger: await loadFixtureFile(DEMO_FIXTURE_PATH) });
    const config = loadConfig({ RPC_URL: localnet.url, PORT: "0", HOST: "127.0.0.1", RESOLVE_CACHE_TTL_MS: "60000" });
    gateway = await startGateway(config, log.logger);
  });
  afterAll(async () => {
    await gateway.close();
    await localnet.close();
  });
  beforeEach(() => log.clear());

  it.each([
    ["a key", "/resolve/plain.sns", 200],
    ["a missing domain", "/resolve/missing.sns", 404],
    ["a malformed record", "/resolve/invalid-roa.sns", 422],
    ["a .sol name", "/resolve/plain.sol", 200],
  ])("answers a repeat about %s as the app does", async (_, path, status) => {
    await get(path);
    expect(gateway.gateway.resolveRepeats?.answer(keyOf(path), undefined, () => "127.0.0.1")).toMatchObject({ status });
    localnet.resetStats();
    log.clear();

    const fromApp = await get(`${path}?from=app`);
    const beforeApp = await get(path);
    await flushLog();

    expect(beforeApp.status).toBe(status);
    expect(beforeApp.text).toBe(fromApp.text);
    expect(stableHeaders(beforeApp)).toEqual(stableHeaders(fromApp));
    // Both served from the cache entry: both say how old it is.
    expect(beforeApp.headers.get("age")).toMatch(/^\d+$/);
    expect(fromApp.headers.get("age")).toMatch(/^\d+$/);
    expect(localnet.stats.httpRequests).toBe(0);
    const [appLine, line] = requestLines();
    expect(line).toEqual({
      ...appLine,
      reqId: beforeApp.headers.get("x-request-id"),
      ms: expect.any(Number),
      time: expect.any(Number),
    });
    expect(line).toMatchObject({ route: "/resolve/:domain", status, rpcCalls: 0, rpcOverride: false });
  });

  it("echoes a sane X-Request-Id and replaces one that is not", async () => {
    await get("/resolve/plain.sns");
    const echoed = await get("/resolve/plain.sns", { headers: { "X-Request-Id": "trace-42" } });
    expect(echoed.headers.get("x-request-id")).toBe("trace-42");
    const replaced = await get("/resolve/plain.sns", { headers: { "X-Request-Id": "has space" } });
    expect(replaced.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    await flushLog();
    expect(requestLines().map((line) => line.reqId)).toContain("trace-42");
  });

  it("counts its answers in /metrics as the app counts a cache hit", async () => {
    await get("/resolve/plain.sns");
    const labels = { route: "/resolve/:domain", method: "GET", status: "200" };
    const before = await metrics();
    for (let i = 0; i < 5; i++) expect((await get("/resolve/plain.sns")).status).toBe(200);
    const after = await metrics();
    const moved = (name: string, sample: Record<string, string>) =>
      sampleValue(after, name, sample) - sampleValue(before, name, sample);
    expect(moved("sns_gateway_http_requests_total", labels)).toBe(5);
    expect(moved("sns_gateway_resolve_cache_total", { result: "hit" })).toBe(5);
    expect(moved("sns_gateway_http_request_duration_seconds_count", { route: "/resolve/:domain" })).toBe(5);
    expect(sampleValue(after, "sns_gateway_http_requests_in_flight")).toBe(1);
  });

  it("leaves to the app what it must see: other methods, queries, paths it has not validated", async () => {
    await get("/resolve/plain.sns");
    const head = await get("/resolve/plain.sns", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
    const preflight = await get("/resolve/plain.sns", {
      method: "OPTIONS",
      headers: { Origin: "https://wallet.example", "Access-Control-Request-Method": "GET" },
    });
    expect(preflight.status).toBe(204);
    const override = await get(`/resolve/plain.sns?rpc=${encodeURIComponent("http://127.0.0.1:1")}`);
    expect(override.status).toBe(400);
    expect(override.headers.get("cache-control")).toBe("no-store");
    // Another spelling of a learned path is learned on its own, once the app has validated it.
    expect(
      gateway.gateway.resolveRepeats?.answer(keyOf("/resolve/PLAIN.sns"), undefined, () => "127.0.0.1"),
    ).toBeUndefined();
    expect((await get("/resolve/plain")).status).toBe(400);
    expect(
      gateway.gateway.resolveRepeats?.answer(keyOf("/resolve/plain"), undefined, () => "127.0.0.1"),
    ).toBeUndefined();
  });

  it("leaves a request without Host to the adapter's envelope answer", async () => {
    await get("/resolve/plain.sns");
    const answer = await rawExchange(gateway.url, "GET /resolve/plain.sns HTTP/1.1\r\nConnection: close\r\n\r\n");
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ s: "error", result: "Bad request" });
  });

  it("answers nothing for a name whose cache entry is gone", async () => {
    const path = "/resolve/v1-sol.sns";
    expect(gateway.gateway.resolveRepeats?.answer(keyOf(path), undefined, () => "127.0.0.1")).toBeUndefined();
    localnet.setFault({ kind: "http-status", status: 503, times: 1 });
    expect((await get(path)).status).toBe(502);
    // Learned, but RPC faults are never cached: the app answers again, and resolves.
    expect(gateway.gateway.resolveRepeats?.answer(keyOf(path), undefined, () => "127.0.0.1")).toBeUndefined();
    expect((await get(path)).status).toBe(200);
    expect(gateway.gateway.resolveRepeats?.answer(keyOf(path), undefined, () => "127.0.0.1")).toMatchObject({
      status: 200,
    });
  });
});

describeOnNode("repeated /resolve requests with the cache on and no RPC_URL", () => {
  let gateway: RunningGateway;
  const log = captureLog();

  beforeAll(async () => {
    const config = loadConfig({ PORT: "0", HOST: "127.0.0.1", RESOLVE_CACHE_TTL_MS: "60000" });
    gateway = await startGateway(config, log.logger);
  });
  afterAll(() => gateway.close());

  it("are answered by the app alone, each with one request line and one warning, never one more", async () => {
    for (let i = 0; i < 3; i++) {
      const answer = await request(gateway.url, "/resolve/plain.sns");
      expect(answer.status).toBe(500);
      expect(answer.body).toEqual({ s: "error", result: "Internal error" });
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(gateway.gateway.resolveRepeats).toBeUndefined();
    const lines = log.lines();
    expect(lines.filter((line) => line.msg === "request")).toHaveLength(3);
    expect(lines.filter((line) => line.msg === "request").map((line) => line.error)).toEqual(
      Array(3).fill("RpcNotConfiguredError"),
    );
    const warnings = lines.filter((line) => line.level === 40);
    expect(warnings.map((line) => line.msg)).toEqual(Array(3).fill("request failed"));
  });
});

describeOnNode("repeats answered before the app, and RPC_RATE_LIMIT", () => {
  let localnet: Localnet;
  let gateway: RunningGateway;
  beforeAll(async () => {
    localnet = await startLocalnet({ ledger: await loadFixtureFile(DEMO_FIXTURE_PATH) });
    const env = {
      RPC_URL: localnet.url,
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "silent",
      RESOLVE_CACHE_TTL_MS: "60000",
      RPC_RATE_LIMIT: "3",
    };
    gateway = await startGateway(loadConfig(env));
  });
  afterAll(async () => {
    await gateway.close();
    await localnet.close();
  });
  const get = (path: string) => request(gateway.url, path);

  it("carry the client's RateLimit-* headers, and once its calls are spent the app answers its 429", async () => {
    expect((await get("/resolve/plain.sns")).status).toBe(200);
    const repeat = await get("/resolve/plain.sns");
    expect(
      gateway.gateway.resolveRepeats?.answer(
        `${new URL(gateway.url).host} /resolve/plain.sns`,
        undefined,
        () => "127.0.0.1",
      ),
    ).toBeDefined();
    expect([repeat.status, repeat.headers.get("ratelimit-limit"), repeat.headers.get("ratelimit-remaining")]).toEqual([
      200,
      "3",
      "2",
    ]);
    for (const name of ["bonfida", "v2-sol", "v1-sol"]) await get(`/resolve/${name}.sns`);
    const hits = async () =>
      sampleValue((await get("/metrics")).text, "sns_gateway_resolve_cache_total", { result: "hit" });
    const hitsBefore = await hits();
    const spent = await get("/resolve/plain.sns");
    expect([spent.status, spent.body, spent.headers.get("retry-after") !== null]).toEqual([
      429,
      { s: "error", result: "Too many requests" },
      true,
    ]);
    // The cached answer the client did not get is not counted as a hit.
    expect(await hits()).toBe(hitsBefore);
  });
});

// With the resolve cache off (the default), a repeated `/resolve` request is resolved before the app
// (ResolveRepeats.resolve, src/http/answer/resolve-miss.ts): the same reads, and the answer, headers, log
// line, warnings and metrics the app gives for the same chain state.
describeOnNode("repeated /resolve requests resolved before the app", () => {
  let localnet: Localnet;
  let gateway: RunningGateway;
  const log = captureLog();
  const requestLines = () => log.lines().filter((line) => line.msg === "request");
  const warnings = () => log.lines().filter((line) => line.level === 40);
  const get = (path: string, init?: RequestInit) => request(gateway.url, path, init);
  const flushLog = () => new Promise((resolve) => setImmediate(resolve));
  const keyOf = (path: string) => `${new URL(gateway.url).host} ${path}`;
  /** The default RPC_RATE_LIMIT counts every request's calls: what is left differs from answer to answer. */
  const headersOf = (answer: Answer) => stableHeaders(answer).filter(([name]) => name !== "ratelimit-remaining");

  beforeAll(async () => {
    localnet = await startLocalnet({ ledger: await loadFixtureFile(DEMO_FIXTURE_PATH) });
    const config = loadConfig({ RPC_URL: localnet.url, PORT: "0", HOST: "127.0.0.1" });
    gateway = await startGateway(config, log.logger);
  });
  afterAll(async () => {
    await gateway.close();
    await localnet.close();
  });
  beforeEach(() => {
    localnet.setFault(null);
    log.clear();
  });

  /** The app's answer and the one given before it, one after the other, with their log lines and RPC requests. */
  async function bothWays(path: string) {
    localnet.resetStats();
    log.clear();
    const fromApp = await get(`${path}?from=app`);
    const appRpc = localnet.stats.httpRequests;
    await flushLog();
    const appLines = log.lines();
    localnet.resetStats();
    log.clear();
    const beforeApp = await get(path);
    const ownRpc = localnet.stats.httpRequests;
    await flushLog();
    return { fromApp, appRpc, appLines, beforeApp, ownRpc, ownLines: log.lines() };
  }

  it.each([
    ["a tokenized domain", "/resolve/bonfida.sns", 200],
    ["a V2 SOL record's key", "/resolve/v2-sol.sns", 200],
    ["a subdomain", "/resolve/dex.bonfida.sns", 200],
    ["a registry owner", "/resolve/plain.sns", 200],
    ["a V1 SOL record's key", "/resolve/v1-sol.sns", 200],
    ["a .sol name", "/resolve/plain.sol", 200],
    ["a missing domain", "/resolve/nobody.sns", 404],
    ["a malformed record", "/resolve/invalid-roa.sns", 422],
    ["the same name through /safe-resolve", "/safe-resolve/bonfida.sns", 200],
  ])("resolves a repeat about %s as the app does", async (_, path, status) => {
    await get(path);
    // Learned: given before the app, resolved now (the cache is off).
    const direct = gateway.gateway.resolveRepeats?.respond(keyOf(path), undefined, () => "127.0.0.1");
    expect(direct).toBeInstanceOf(Promise);
    expect(await direct).toMatchObject({ status });

    const { fromApp, appRpc, appLines, beforeApp, ownRpc, ownLines } = await bothWays(path);
    expect(beforeApp.status).toBe(status);
    expect(beforeApp.text).toBe(fromApp.text);
    expect(headersOf(beforeApp)).toEqual(headersOf(fromApp));
    // Both drew on the client's RPC_URL calls: the second sees the first's spent.
    const remaining = (answer: Answer) => Number(answer.headers.get("ratelimit-remaining"));
    expect(remaining(fromApp) - remaining(beforeApp)).toBe(appLines.find((line) => line.msg === "request")!.rpcCalls);
    expect(beforeApp.headers.get("x-context-slot")).toMatch(/^\d+$/);
    expect(beforeApp.headers.get("age")).toBeNull();
    expect(ownRpc).toBe(appRpc);
    expect(ownRpc).toBeGreaterThan(0);
    expect(ownLines).toEqual(
      appLines.map((line) => ({
        ...line,
        reqId: beforeApp.headers.get("x-request-id"),
        ms: expect.any(Number),
        time: expect.any(Number),
      })),
    );
    expect(ownLines.at(-1)).toMatchObject({ msg: "request", route: expect.stringMatching(/resolve/), status });
  });

  it("answers an RPC fault as the app does, with the same warning", async () => {
    const path = "/resolve/v1-sol.sns";
    await get(path);
    await flushLog();
    log.clear();
    localnet.setFault({ kind: "http-status", status: 503, times: 1 });
    const fromApp = await get(`${path}?from=app`);
    await flushLog();
    const appLines = log.lines();
    log.clear();
    localnet.setFault({ kind: "http-status", status: 503, times: 1 });
    const beforeApp = await get(path);
    await flushLog();
    expect([beforeApp.status, beforeApp.text]).toEqual([fromApp.status, fromApp.text]);
    expect(beforeApp.status).toBe(502);
    expect(headersOf(beforeApp)).toEqual(headersOf(fromApp));
    const strip = (line: Record<string, unknown>) => ({ ...line, reqId: 0, ms: 0, time: 0, err: undefined });
    expect(log.lines().map(strip)).toEqual(appLines.map(strip));
    expect(warnings().map((line) => line.msg)).toEqual(["request failed"]);
    expect(requestLines()[0]).toMatchObject({ status: 502, error: expect.any(String), rpcOverride: false });
    // Faults are not remembered: the next repeat resolves again.
    expect((await get(path)).status).toBe(200);
  });

  it("counts its answers in /metrics as the app counts a resolved request", async () => {
    const path = "/resolve/bonfida.sns";
    await get(path);
    const labels = { route: "/resolve/:domain", method: "GET", status: "200" };
    const moved = async (run: () => Promise<unknown>) => {
      const before = (await get("/metrics")).text;
      await run();
      const after = (await get("/metrics")).text;
      const delta = (name: string, sample: Record<string, string>) =>
        sampleValue(after, name, sample) - sampleValue(before, name, sample);
      return [
        delta("sns_gateway_http_requests_total", labels),
        delta("sns_gateway_http_request_duration_seconds_count", { route: labels.route }),
        delta("sns_gateway_answers_total", { cache: "miss" }),
      ];
    };
    const viaApp = await moved(async () => {
      for (let i = 0; i < 4; i++) expect((await get(`${path}?from=app`)).status).toBe(200);
    });
    const beforeApp = await moved(async () => {
      for (let i = 0; i < 4; i++) expect((await get(path)).status).toBe(200);
    });
    expect(viaApp).toEqual([4, 4, 4]);
    expect(beforeApp).toEqual(viaApp);
  });

  it("shares one resolution between concurrent repeats, each answered", async () => {
    const path = "/resolve/bonfida.sns";
    await get(path);
    localnet.resetStats();
    const answers = await Promise.all(Array.from({ length: 8 }, () => get(path)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((answer) => answer.text)).size).toBe(1);
    expect(localnet.stats.httpRequests).toBeLessThan(8);
  });
});

describeOnNode("repeats resolved before the app, and RPC_RATE_LIMIT", () => {
  let localnet: Localnet;
  let gateway: RunningGateway;
  beforeAll(async () => {
    localnet = await startLocalnet({ ledger: await loadFixtureFile(DEMO_FIXTURE_PATH) });
    const env = { RPC_URL: localnet.url, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "silent", RPC_RATE_LIMIT: "5" };
    gateway = await startGateway(loadConfig(env));
  });
  afterAll(async () => {
    await gateway.close();
    await localnet.close();
  });
  const get = (path: string) => request(gateway.url, path);

  it("draw on the client's calls and carry its RateLimit-* headers; once spent the app answers its 429", async () => {
    const path = "/resolve/plain.sns";
    const key = `${new URL(gateway.url).host} ${path}`;
    const remaining = (headers: { get(name: string): string | null }) => Number(headers.get("ratelimit-remaining"));
    const learned = await get(path);
    // While the client has calls left, a repeat is resolved before the app, from the same window.
    const direct = await gateway.gateway.resolveRepeats!.respond(key, undefined, () => "127.0.0.1");
    const repeat = await get(path);
    const viaApp = await get(`${path}?from=app`);
    expect([learned.status, direct?.status, repeat.status, viaApp.status]).toEqual([200, 200, 200, 200]);
    expect(repeat.headers.get("ratelimit-limit")).toBe("5");
    // Each resolution of the name costs the same calls, whichever way it is answered.
    const cost = remaining(learned.headers) - Number(direct!.headers["ratelimit-remaining"]);
    expect(cost).toBeGreaterThan(0);
    expect(remaining(learned.headers) - remaining(repeat.headers)).toBe(2 * cost);
    expect(remaining(repeat.headers) - remaining(viaApp.headers)).toBe(cost);
    let spent = viaApp;
    for (let i = 0; i < 5 && spent.status === 200; i++) spent = await get(path);
    expect(gateway.gateway.resolveRepeats!.respond(key, undefined, () => "127.0.0.1")).toBeUndefined();
    if (spent.status === 200) spent = await get(path);
    expect([spent.status, spent.body, spent.headers.get("retry-after") !== null]).toEqual([
      429,
      { s: "error", result: "Too many requests" },
      true,
    ]);
  });
});

// The requests above are compared through HTTP, where the app would give the same answers: here the app's
// requests are counted, to show that the repeats never reach it. With RPC_RATE_LIMIT on (the default), the
// app's frame asks the platform for every request's peer address; the listener never does.
describeOnNode("repeated /resolve requests never reach the app", () => {
  let localnet: Localnet;
  let gateway: RunningGateway;
  let appRequests = 0;
  let url = "";

  beforeAll(async () => {
    localnet = await startLocalnet({ ledger: await loadFixtureFile(DEMO_FIXTURE_PATH) });
    const config = loadConfig({ RPC_URL: localnet.url, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "silent" });
    gateway = await startGateway(config, undefined, {
      peerAddress: (c) => {
        appRequests++;
        return getConnInfo(c).remote.address;
      },
    });
    url = gateway.url;
  });
  afterAll(async () => {
    await gateway.close();
    await localnet.close();
  });

  it("resolutions, failures and RPC faults of a validated request are answered before the app", async () => {
    const paths = ["/resolve/bonfida.sns", "/resolve/nobody.sns", "/resolve/invalid-roa.sns", "/resolve/plain.sol"];
    const first = await Promise.all(paths.map((path) => request(url, path)));
    expect(first.map((answer) => answer.status)).toEqual([200, 404, 422, 200]);
    expect(appRequests).toBe(paths.length);
    const repeats = await Promise.all(paths.map((path) => request(url, path)));
    expect(repeats.map((answer) => answer.text)).toEqual(first.map((answer) => answer.text));
    localnet.setFault({ kind: "http-status", status: 503, times: 1 });
    expect((await request(url, paths[0]!)).status).toBe(502);
    expect(appRequests).toBe(paths.length);
    // A query, another spelling, another method: the app's.
    await request(url, `${paths[0]}?x=1`);
    await request(url, "/resolve/BONFIDA.sns");
    await request(url, paths[0]!, { method: "HEAD" });
    expect(appRequests).toBe(paths.length + 3);
  });
});
