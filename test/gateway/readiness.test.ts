import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_FIXTURE_PATH, loadFixtureFile } from "../../src/localnet/index.js";
import { startLocalnet } from "../../src/localnet/server.js";
import {
  type Stack,
  type TestGateway,
  describeOnNode,
  onWorkerd,
  request,
  startStack,
  startTestGateway,
} from "../../testkit/stack.js";

// `/health` is liveness (the process answers); `/ready` is readiness: an RPC endpoint answers now and,
// where this process keeps the tokenized index, it is near the tip. Both answers carry the report.

interface Report {
  readonly ready: boolean;
  readonly reasons?: string[];
  readonly rpc: {
    readonly tipSlot: number | null;
    readonly error?: string;
    readonly endpoints: { host: string; circuit: string; lastFault: { kind: string; at: string } | null }[];
  };
  readonly index: { state: string; lagSlots?: number | null; records?: number } | null;
  readonly sol: { paused: boolean; decidedAtSlot: number | null; srs: boolean };
  readonly version: { package: string; commit: string | null };
}

const PACKAGE_VERSION = (JSON.parse(readFileSync("package.json", "utf8")) as { version: string }).version;
const BONFIDA_HOLDER = "Hbn1ZdzThM2Hhd4V79imRRHFBsnjzskG6j9GZto8fSs7";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("/ready against a live localnet", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH));
  });
  afterAll(() => stack?.close());

  it("answers 200 with the tip slot, the endpoint, the .sol state and the version; never cached", async () => {
    stack.localnet.ledger.slot = 300_100_000;
    await stack.get("/resolve/plain.sol");
    const answer = await stack.get("/ready");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("application/json");
    expect(answer.headers.get("cache-control")).toBe("no-store");
    const report = answer.body as Report;
    expect(report.ready).toBe(true);
    expect(report.reasons).toBeUndefined();
    expect(report.rpc.tipSlot).toBe(stack.localnet.ledger.slotAt("confirmed"));
    expect(report.rpc.endpoints).toEqual([
      { host: new URL(stack.localnet.url).host, circuit: "none", lastFault: null },
    ]);
    expect(report.sol).toEqual({ paused: false, decidedAtSlot: 300_100_000, srs: false });
    expect(report.version).toEqual({ package: PACKAGE_VERSION, commit: null });
    // On Workers the index lives in a Durable Object: the isolate does not know its lag.
    expect(report.index).toEqual(
      onWorkerd
        ? { state: "elsewhere" }
        : { state: "idle", lagSlots: null, lagSeconds: null, records: 0, maxLagSlots: 150 },
    );
  });

  it("asked often, costs RPC_URL one getSlot a second at most, however many ask at once", async () => {
    await sleep(1100);
    // A slow endpoint: every /ready arrives while the first tip read is still in flight.
    stack.localnet.setLatency(300);
    try {
      stack.localnet.resetStats();
      const answers = await Promise.all(Array.from({ length: 50 }, () => stack.get("/ready")));
      for (let i = 0; i < 5; i++) answers.push(await stack.get("/ready"));
      expect(answers.every((answer) => answer.status === 200)).toBe(true);
      expect(stack.localnet.stats.methods.getSlot ?? 0).toBeLessThanOrEqual(1);
    } finally {
      stack.localnet.setLatency(0);
    }
    stack.localnet.resetStats();
    for (let i = 0; i < 5; i++) await stack.get("/ready");
    expect(stack.localnet.stats.methods.getSlot ?? 0).toBeLessThanOrEqual(1);
  });

  it("/health stays liveness: 200 whatever the RPC", async () => {
    expect((await stack.get("/health")).status).toBe(200);
  });
});

describe("/ready when no endpoint answers", () => {
  it("the only endpoint stopped: 503 with the report; /health still 200", async () => {
    const localnet = await startLocalnet({ ledger: await loadFixtureFile(DEMO_FIXTURE_PATH) });
    const url = localnet.url;
    await localnet.close();
    const gateway: TestGateway = await startTestGateway({ RPC_URL: url, RPC_TIMEOUT_MS: "1000" });
    try {
      const answer = await request(gateway.url, "/ready");
      expect(answer.status).toBe(503);
      const report = answer.body as Report;
      expect(report.ready).toBe(false);
      expect(report.reasons).toEqual(["no RPC endpoint answered"]);
      expect(report.rpc.tipSlot).toBeNull();
      // A kind, never the fault's text: the page is public, and a message names the address or the provider.
      expect(report.rpc.error).toBe("network");
      expect(report.rpc.endpoints).toHaveLength(1);
      expect(report.rpc.endpoints[0]!.lastFault?.kind).toBe("network");
      expect((await request(gateway.url, "/health")).status).toBe(200);
    } finally {
      await gateway.close();
    }
  });

  it("several endpoints, all stopped: 503, each with its circuit and last fault", async () => {
    const localnets = await Promise.all(
      [0, 1].map(async () => startLocalnet({ ledger: await loadFixtureFile(DEMO_FIXTURE_PATH) })),
    );
    const urls = localnets.map((localnet) => localnet.url);
    await Promise.all(localnets.map((localnet) => localnet.close()));
    const gateway = await startTestGateway({ RPC_URL: urls.join(","), RPC_TIMEOUT_MS: "1000" });
    try {
      const answer = await request(gateway.url, "/ready");
      expect(answer.status).toBe(503);
      const report = answer.body as Report;
      expect(report.rpc.endpoints.map((endpoint) => endpoint.host)).toEqual(urls.map((url) => new URL(url).host));
      for (const endpoint of report.rpc.endpoints) {
        expect(["closed", "open", "half_open"]).toContain(endpoint.circuit);
        expect(endpoint.lastFault?.kind).toBeTypeOf("string");
        expect(Number.isNaN(Date.parse(endpoint.lastFault!.at))).toBe(false);
      }
    } finally {
      await gateway.close();
    }
  });
});

describeOnNode("/ready and the tokenized index of this process", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH), { READY_MAX_INDEX_LAG_SLOTS: "10" });
  });
  afterAll(() => stack?.close());

  it("answering and at the tip: 200; the tip 100 slots ahead (READY_MAX_INDEX_LAG_SLOTS=10): 503 with the lag; caught up again: 200", async () => {
    // The holder of the demo's tokenized `bonfida.sns`: its /domains builds the index.
    expect((await stack.get(`/domains/${BONFIDA_HOLDER}`)).status).toBe(200);
    let ready = (await stack.get("/ready")).body as Report;
    for (let i = 0; i < 50 && ready.index?.state !== "ready"; i++) {
      await sleep(100);
      ready = (await stack.get("/ready")).body as Report;
    }
    expect(ready.index).toMatchObject({ state: "ready", lagSlots: 0 });
    expect(ready.index?.records).toBeGreaterThan(0);
    expect(ready.ready).toBe(true);

    // Within what the index believes of a slot this soon (src/rpc/slot-bound.ts), so its catch-up can reach it.
    stack.localnet.ledger.slot += 100;
    // Past the second one tip read answers for.
    await sleep(1100);
    const behind = await stack.get("/ready");
    expect(behind.status).toBe(503);
    const report = behind.body as Report;
    expect(report.reasons).toEqual(["tokenized index behind the tip"]);
    expect(report.index).toMatchObject({ state: "ready", lagSlots: 100, lagSeconds: 40 });
    expect(report.rpc.tipSlot).toBe(stack.localnet.ledger.slotAt("confirmed"));

    // That call started the index's catch-up to the tip.
    let status = 503;
    for (let i = 0; i < 50 && status !== 200; i++) {
      await sleep(100);
      status = (await stack.get("/ready")).status;
    }
    expect(status).toBe(200);
  });
});

describeOnNode("/ready with processed ahead of confirmed, as on a real cluster", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH));
  });
  afterAll(() => stack?.close());

  it("the index keeps its rows and is not rebuilt: the tip is compared at confirmed, as the index reads", async () => {
    expect((await stack.get(`/domains/${BONFIDA_HOLDER}`)).status).toBe(200);
    let ready = (await stack.get("/ready")).body as Report;
    for (let i = 0; i < 50 && ready.index?.state !== "ready"; i++) {
      await sleep(100);
      ready = (await stack.get("/ready")).body as Report;
    }
    expect(ready.index?.state).toBe("ready");
    const records = ready.index!.records;
    expect(records).toBeGreaterThan(0);

    stack.localnet.ledger.lead.processed = 2;
    stack.localnet.resetStats();
    // Past the second one tip read answers for, then past the first retry pause of a failed index.
    for (const pause of [1100, 300, 1500]) {
      await sleep(pause);
      const answer = await stack.get("/ready");
      expect(answer.status).toBe(200);
      expect((answer.body as Report).index).toMatchObject({ state: "ready", records, lagSlots: 0 });
      expect((answer.body as Report).rpc.tipSlot).toBe(stack.localnet.ledger.slotAt("confirmed"));
    }
    expect(stack.localnet.stats.methods.getProgramAccounts ?? 0).toBe(0);
    stack.localnet.ledger.lead.processed = 0;
  });
});
