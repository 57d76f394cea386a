import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  type Fault,
  Ledger,
  type Localnet,
  buildDomainAccounts,
  identity,
  startLocalnet,
} from "../../src/localnet/index.js";
import { sampleValue } from "../../testkit/prometheus.js";
import { type TestGateway, onWorkerd, request, startTestGateway, describeOnNode } from "../../testkit/stack.js";

// Several RPC endpoints behind one gateway (RPC_URL="a,b[,c]"), each a real
// localnet over HTTP: a fault on the first endpoint must never reach the
// client while another endpoint can answer.

const alice = identity("alice").address;
const TIMEOUT_MS = 1000;

let ledger: Ledger;
let first: Localnet;
let second: Localnet;
let third: Localnet;
const gateways: TestGateway[] = [];

async function gatewayOver(urls: string[], env: Record<string, string> = {}): Promise<TestGateway> {
  const gateway = await startTestGateway({ RPC_URL: urls.join(","), RPC_TIMEOUT_MS: String(TIMEOUT_MS), ...env });
  gateways.push(gateway);
  return gateway;
}

const host = (localnet: Localnet) => new URL(localnet.url).host;

beforeAll(async () => {
  ledger = new Ledger();
  for (const { address, account } of buildDomainAccounts({ name: "art", owner: alice }))
    ledger.setAccount(address, account);
  const localnets = await Promise.all([0, 1, 2].map(() => startLocalnet({ ledger })));
  [first, second, third] = [localnets[0]!, localnets[1]!, localnets[2]!];
});
afterAll(async () => {
  await Promise.all(gateways.map((gateway) => gateway.close()));
  await Promise.all([first, second, third].map((localnet) => localnet.close()));
});

const resolveArt = (gateway: TestGateway) => request(gateway.url, "/resolve/art.sol");

describe("a fault on the first endpoint is answered by the second", () => {
  let gateway: TestGateway;
  let expected: unknown;
  beforeAll(async () => {
    gateway = await gatewayOver([first.url, second.url]);
    expected = (await resolveArt(gateway)).body;
    expect(expected).toEqual({ s: "ok", result: alice });
  });

  const kinds: [string, Fault][] = [
    ["a timeout", { kind: "hang", times: 1 }],
    ["HTTP 500", { kind: "http-status", status: 500, times: 1 }],
    ["HTTP 503", { kind: "http-status", status: 503, times: 1 }],
    ["an HTML page instead of JSON", { kind: "garbage", times: 1 }],
    ["-32005 node is behind", { kind: "jsonrpc-error", code: -32005, message: "Node is behind by 42 slots", times: 1 }],
    [
      "-32004 block not available",
      { kind: "jsonrpc-error", code: -32004, message: "Block not available for slot", times: 1 },
    ],
    [
      "-32014 block status not yet available",
      { kind: "jsonrpc-error", code: -32014, message: "Block status not yet available", times: 1 },
    ],
    [
      "-32016 min context slot not reached",
      { kind: "jsonrpc-error", code: -32016, message: "Minimum context slot has not been reached", times: 1 },
    ],
    ["-32601 method not served", { kind: "jsonrpc-error", code: -32601, message: "Method not found", times: 1 }],
  ];
  for (const [name, fault] of kinds) {
    it(`after ${name}`, async () => {
      first.resetStats();
      second.resetStats();
      first.setFault(fault);
      const started = performance.now();
      const answer = await resolveArt(gateway);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(expected);
      expect(first.stats.httpRequests).toBe(1);
      expect(second.stats.httpRequests).toBe(1);
      // The first endpoint's share of the deadline, then the second's answer.
      expect(performance.now() - started).toBeLessThan(TIMEOUT_MS);
      first.setFault(null);
      // Answered by the first endpoint again (which also resets its count of faults in a row).
      expect((await resolveArt(gateway)).body).toEqual(expected);
      expect(first.stats.httpRequests).toBe(2);
    });
  }

  it("after HTTP 429, and the first endpoint rests for its Retry-After", async () => {
    first.resetStats();
    second.resetStats();
    first.setFault({ kind: "http-status", status: 429, headers: { "retry-after": "1" }, times: 1 });
    expect((await resolveArt(gateway)).body).toEqual(expected);
    expect(first.stats.httpRequests).toBe(1);
    // Within the second asked for, reads go straight to the second endpoint.
    for (let i = 0; i < 3; i++) expect((await resolveArt(gateway)).body).toEqual(expected);
    expect(first.stats.httpRequests).toBe(1);
    expect(second.stats.httpRequests).toBe(4);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await resolveArt(gateway)).body).toEqual(expected);
    expect(first.stats.httpRequests).toBe(2);
  });

  it("-32016, a slot the gateway asked that the node has not reached, fails over but never benches the endpoint", async () => {
    first.resetStats();
    second.resetStats();
    first.setFault({
      kind: "jsonrpc-error",
      code: -32016,
      message: "Minimum context slot has not been reached",
      times: 8,
    });
    for (let i = 0; i < 8; i++) expect((await resolveArt(gateway)).body).toEqual(expected);
    // Asked every time: five faults in a row would have taken it out of rotation after the fifth.
    expect(first.stats.httpRequests).toBe(8);
    expect(second.stats.httpRequests).toBe(8);
    expect((await resolveArt(gateway)).body).toEqual(expected);
    expect(first.stats.httpRequests).toBe(9);
    expect(second.stats.httpRequests).toBe(8);
  });

  it("a JSON-RPC answer about the chain (-32602) is not asked elsewhere", async () => {
    first.resetStats();
    second.resetStats();
    first.setFault({ kind: "jsonrpc-error", code: -32602, message: "Invalid param: could not find account", times: 1 });
    const answer = await resolveArt(gateway);
    expect(answer.status).toBe(502);
    expect(second.stats.httpRequests).toBe(0);
  });
});

describe("every endpoint down", () => {
  it("answers 502 within the deadline", async () => {
    const gateway = await gatewayOver([first.url, second.url, third.url]);
    for (const localnet of [first, second, third]) localnet.setFault({ kind: "hang" });
    const started = performance.now();
    const answer = await resolveArt(gateway);
    const elapsed = performance.now() - started;
    for (const localnet of [first, second, third]) localnet.setFault(null);
    expect(answer.status).toBe(502);
    expect(answer.body).toEqual({ s: "error", result: "RPC unavailable" });
    // Three endpoints hanging would take three deadlines; one deadline, plus room for a machine running two
    // test files at once, is the statement.
    expect(elapsed).toBeLessThan(TIMEOUT_MS + 1000);
  });

  it("a third endpoint answers when the first two fail", async () => {
    const gateway = await gatewayOver([first.url, second.url, third.url]);
    first.setFault({ kind: "http-status", status: 502, times: 1 });
    second.setFault({ kind: "hang", times: 1 });
    third.resetStats();
    expect((await resolveArt(gateway)).body).toEqual({ s: "ok", result: alice });
    expect(third.stats.httpRequests).toBe(1);
  });
});

describe("a flapping endpoint", () => {
  it("is taken out of rotation, then probed and put back", async () => {
    const gateway = await gatewayOver([first.url, second.url], { METRICS: "on" });
    first.setFault({ kind: "http-status", status: 503 });
    for (let i = 0; i < 5; i++) expect((await resolveArt(gateway)).status).toBe(200);
    // Five faults in a row: out of rotation; reads no longer try it.
    first.resetStats();
    for (let i = 0; i < 5; i++) expect((await resolveArt(gateway)).status).toBe(200);
    expect(first.stats.httpRequests).toBe(0);
    if (!onWorkerd) {
      const metrics = (await request(gateway.url, "/metrics")).text;
      expect(sampleValue(metrics, "sns_gateway_rpc_endpoint_circuit", { endpoint: host(first), state: "open" })).toBe(
        1,
      );
      expect(
        sampleValue(metrics, "sns_gateway_rpc_endpoint_faults_total", { endpoint: host(first), kind: "http_5xx" }),
      ).toBe(5);
      expect(
        sampleValue(metrics, "sns_gateway_rpc_endpoint_events_total", { endpoint: host(first), event: "failover" }),
      ).toBe(5);
      expect(metrics).not.toContain(first.url);
    }
    first.setFault(null);
    // After its pause, a real read probes it, and it is back in rotation.
    const deadline = Date.now() + 10_000;
    while (first.stats.httpRequests === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await resolveArt(gateway)).status).toBe(200);
    }
    first.resetStats();
    second.resetStats();
    for (let i = 0; i < 3; i++) expect((await resolveArt(gateway)).status).toBe(200);
    expect(first.stats.httpRequests).toBe(3);
    expect(second.stats.httpRequests).toBe(0);
    if (!onWorkerd) {
      const metrics = (await request(gateway.url, "/metrics")).text;
      expect(sampleValue(metrics, "sns_gateway_rpc_endpoint_circuit", { endpoint: host(first), state: "closed" })).toBe(
        1,
      );
    }
  });
});

// The breaker's pause is drawn with Math.random, which only the in-process (Node) gateway shares with the test.
describeOnNode("an endpoint out of rotation", () => {
  it("takes no share of the deadline: the endpoint before it gets all of it", async () => {
    const gateway = await gatewayOver([first.url, second.url]);
    expect((await resolveArt(gateway)).status).toBe(200);
    // A pause near its longest (~1.4 s): the second endpoint stays out of rotation through the read below.
    const random = vi.spyOn(Math, "random").mockReturnValue(0.99);
    try {
      // Five faults in a row of the second endpoint; each read after them resets the first one's count.
      for (let i = 0; i < 5; i++) {
        first.setFault({ kind: "http-status", status: 503, times: 1 });
        second.setFault({ kind: "http-status", status: 503, times: 1 });
        expect((await resolveArt(gateway)).status).toBe(502);
        expect((await resolveArt(gateway)).status).toBe(200);
      }
    } finally {
      random.mockRestore();
    }
    // Slower than half the deadline (the share it would get beside a second endpoint in rotation), within it.
    first.setLatency(TIMEOUT_MS * 0.65);
    second.resetStats();
    try {
      expect((await resolveArt(gateway)).body).toEqual({ s: "ok", result: alice });
      expect(second.stats.httpRequests).toBe(0);
    } finally {
      first.setLatency(0);
    }
  });
});

describe("the request's budget (RPC_BUDGET_*)", () => {
  it("pays for every endpoint tried", async () => {
    // What one warm request costs on a healthy endpoint, in JSON-RPC calls.
    const probe = await gatewayOver([first.url, second.url]);
    await resolveArt(probe);
    first.resetStats();
    await resolveArt(probe);
    const calls = first.stats.calls;
    expect(calls).toBeGreaterThan(0);
    for (const [budget, status] of [
      [calls, 502],
      [calls * 2, 200],
    ] as const) {
      const gateway = await gatewayOver([first.url, second.url], { RPC_BUDGET_CALLS: String(budget) });
      expect((await resolveArt(gateway)).status).toBe(200);
      first.setFault({ kind: "http-status", status: 503, times: 1 });
      // The failed attempt and the failover are both paid: only a budget with room for both answers.
      expect((await resolveArt(gateway)).status).toBe(status);
      first.setFault(null);
    }
  });

  it("ends a read over every endpoint by the request's deadline", async () => {
    const gateway = await gatewayOver([first.url, second.url], { RPC_TIMEOUT_MS: "5000", RPC_BUDGET_MS: "600" });
    expect((await resolveArt(gateway)).status).toBe(200);
    first.setFault({ kind: "hang" });
    second.setFault({ kind: "hang" });
    try {
      const started = performance.now();
      expect((await resolveArt(gateway)).status).toBe(502);
      expect(performance.now() - started).toBeLessThan(1500);
    } finally {
      first.setFault(null);
      second.setFault(null);
    }
  });
});

describe("an rpc override", () => {
  it("stays one endpoint, even when it names one of RPC_URL's", async () => {
    const gateway = await gatewayOver([first.url, second.url], { ALLOW_PRIVATE_RPC_OVERRIDE: "true" });
    first.setFault({ kind: "http-status", status: 503 });
    second.resetStats();
    try {
      const answer = await request(gateway.url, `/resolve/art.sol?rpc=${encodeURIComponent(first.url)}`);
      expect(answer.status).toBe(502);
      expect(second.stats.httpRequests).toBe(0);
      // Without the override, the same read fails over.
      expect((await resolveArt(gateway)).body).toEqual({ s: "ok", result: alice });
    } finally {
      first.setFault(null);
    }
  });
});

describe("hedging (RPC_HEDGE_MS)", () => {
  it("sends a slow read to the next endpoint too and takes the first answer", async () => {
    const gateway = await gatewayOver([first.url, second.url], { RPC_HEDGE_MS: "50", RPC_TIMEOUT_MS: "5000" });
    first.setLatency(2000);
    try {
      const started = performance.now();
      expect((await resolveArt(gateway)).body).toEqual({ s: "ok", result: alice });
      expect(performance.now() - started).toBeLessThan(1000);
      if (!onWorkerd) {
        const metrics = (await request(gateway.url, "/metrics")).text;
        expect(
          sampleValue(metrics, "sns_gateway_rpc_endpoint_events_total", { endpoint: host(second), event: "hedge" }),
        ).toBeGreaterThanOrEqual(1);
      }
    } finally {
      first.setLatency(0);
    }
  });
});
