import { Connection, PublicKey } from "@solana/web3.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { NAME_PROGRAM_ID } from "../../src/sns/constants.js";
import { Ledger, type Localnet, MALFORMED_RESULT, identity, startLocalnet } from "../../src/localnet/index.js";
import { call, post, startDemoLocalnet } from "./helpers.js";

let localnet: Localnet;
beforeAll(async () => {
  localnet = await startDemoLocalnet();
});
afterAll(() => localnet.close());
afterEach(() => {
  localnet.setFault(null);
  localnet.setLatency(0);
});

const slotCall = { jsonrpc: "2.0", id: 1, method: "getSlot" };

describe("stats", () => {
  it("counts HTTP requests once per batch and calls per method", async () => {
    localnet.resetStats();
    await post(localnet.url, [slotCall, slotCall, { ...slotCall, method: "getHealth" }]);
    await call(localnet.url, "getSlot");
    await call(localnet.url, "unknownMethod");
    await fetch(`${localnet.url}/health`);
    expect(localnet.stats).toEqual({
      httpRequests: 4,
      calls: 5,
      methods: { getSlot: 3, getHealth: 1, unknownMethod: 1 },
      roundTrips: 4,
    });
    localnet.resetStats();
    expect(localnet.stats).toEqual({ httpRequests: 0, calls: 0, methods: {}, roundTrips: 0 });
  });
});

describe("faults", () => {
  it("jsonrpc-error answers matching calls only", async () => {
    localnet.setFault({ kind: "jsonrpc-error", code: -32005, message: "Node is behind", method: "getSlot" });
    const [slot, health] = (await post(localnet.url, [slotCall, { ...slotCall, id: 2, method: "getHealth" }])).json();
    expect(slot).toEqual({ jsonrpc: "2.0", error: { code: -32005, message: "Node is behind" }, id: 1 });
    expect(health).toEqual({ jsonrpc: "2.0", result: "ok", id: 2 });
  });

  it("http-status answers with the status and a text body", async () => {
    localnet.setFault({ kind: "http-status", status: 503 });
    const response = await post(localnet.url, slotCall);
    expect([response.status, response.text]).toEqual([503, "Service Unavailable\n"]);
  });

  it("garbage answers 200 with a body that is not JSON", async () => {
    localnet.setFault({ kind: "garbage" });
    const response = await post(localnet.url, slotCall);
    expect(response.status).toBe(200);
    expect(() => response.json()).toThrow();
  });

  it("malformed-result keeps the envelope but breaks the result's shape", async () => {
    localnet.setFault({ kind: "malformed-result", method: "getMultipleAccounts" });
    expect((await call(localnet.url, "getMultipleAccounts", [[]])).result).toEqual(MALFORMED_RESULT);
    await expect(new Connection(localnet.url).getMultipleAccountsInfo([])).rejects.toThrow();
  });

  it("hang never answers, and close() still returns promptly", async () => {
    const hanging = await startDemoLocalnet();
    hanging.setFault({ kind: "hang" });
    const pending = post(hanging.url, slotCall).then(
      () => "answered",
      () => "dropped",
    );
    const winner = await Promise.race([pending, new Promise((r) => setTimeout(() => r("still waiting"), 200))]);
    expect(winner).toBe("still waiting");
    const started = Date.now();
    await hanging.close();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await pending).toBe("dropped");
  });

  it("times limits a fault to that many requests", async () => {
    localnet.setFault({ kind: "http-status", status: 429, times: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await post(localnet.url, slotCall)).status);
    expect(statuses).toEqual([429, 429, 200]);
  });

  it("method-scoped HTTP faults spare other requests", async () => {
    localnet.setFault({ kind: "http-status", status: 500, method: "getTokenLargestAccounts" });
    expect((await post(localnet.url, slotCall)).status).toBe(200);
    const largest = { ...slotCall, method: "getTokenLargestAccounts", params: [identity("x").address] };
    expect((await post(localnet.url, largest)).status).toBe(500);
  });
});

describe("latency", () => {
  it("delays every answer by the configured time", async () => {
    localnet.setLatency(120);
    const started = performance.now();
    await call(localnet.url, "getSlot");
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);
    localnet.setLatency(0);
    const fast = performance.now();
    await call(localnet.url, "getSlot");
    expect(performance.now() - fast).toBeLessThan(100);
  });
});

describe("lifecycle", () => {
  it("serves ledger changes immediately and closes keep-alive connections", async () => {
    const ledger = new Ledger({ slot: 5 });
    const net = await startLocalnet({ ledger, latencyMs: 0 });
    expect(net.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const address = identity("fresh").address;
    const connection = new Connection(net.url, "processed");
    expect(await connection.getAccountInfo(new PublicKey(address))).toBeNull();
    ledger.setAccount(address, { owner: NAME_PROGRAM_ID, data: new Uint8Array([1, 2, 3]) });
    ledger.slot = 6;
    const { result } = await call(net.url, "getAccountInfo", [address, { encoding: "base64" }]);
    expect(result).toMatchObject({ context: { slot: 6 }, value: { data: ["AQID", "base64"], space: 3 } });
    const started = Date.now();
    await net.close();
    await net.close();
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
