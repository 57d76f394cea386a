import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.js";
import { JsonRpcError, RpcError, isMinContextSlotRefusal, parseRetryAfter } from "../../src/rpc/errors.js";
import { AttemptCancelled, EndpointHealth } from "../../src/rpc/failover/endpoint-health.js";
import { NO_TELEMETRY } from "../../src/telemetry.js";
import { hostLabels } from "../../src/rpc/failover/host-label.js";
import { countsAgainstEndpoint } from "../../src/rpc/failover/fault-kind.js";
import { nodeConditionIn } from "../../src/rpc/failover/node-condition.js";
import { NodeConditionFault } from "../../src/rpc/failover/node-condition-fault.js";

describe("RPC_URL with several endpoints", () => {
  it("takes one URL or a comma-separated list, each checked", () => {
    expect(loadConfig({ RPC_URL: "https://a.example/k" }).rpcUrls).toEqual(["https://a.example/k"]);
    expect(loadConfig({ RPC_URL: " https://a.example/k , http://b.example:8899 " }).rpcUrls).toEqual([
      "https://a.example/k",
      "http://b.example:8899",
    ]);
    expect(loadConfig({}).rpcUrls).toEqual([]);
    expect(() => loadConfig({ RPC_URL: "https://a.example,ftp://b.example" })).toThrow(
      new ConfigError("invalid configuration: RPC_URL: must be http(s) URLs separated by commas"),
    );
    expect(() => loadConfig({ RPC_URL: "https://a.example/,https://a.example" })).toThrow("names the same URL twice");
    expect(loadConfig({ RPC_HEDGE_MS: "40" }).rpcHedgeMs).toBe(40);
    expect(loadConfig({}).rpcHedgeMs).toBe(0);
  });

  it("labels endpoints by host only, never credentials, path or query", () => {
    const labels = hostLabels([
      "https://user:S3CR3T@rpc.example.com/v1/KEY?api-key=Q",
      "http://127.0.0.1:8899",
      "https://rpc.example.com/other",
    ]);
    expect(labels).toEqual(["rpc.example.com#1", "127.0.0.1:8899", "rpc.example.com#3"]);
  });
});

describe("what sends a read elsewhere", () => {
  it("finds node-condition errors in a single answer or any entry of a batch, not chain facts", () => {
    expect(nodeConditionIn({ jsonrpc: "2.0", id: 1, error: { code: -32005, message: "Node is behind" } })).toBe(-32005);
    expect(
      nodeConditionIn([
        { id: 1, result: 1 },
        { id: 2, error: { code: -32016, message: "min context slot" } },
      ]),
    ).toBe(-32016);
    expect(
      nodeConditionIn({ id: 1, error: { code: -32602, message: "Invalid param: not a Token mint" } }),
    ).toBeUndefined();
    expect(nodeConditionIn([{ id: 1, result: null }])).toBeUndefined();
    expect(nodeConditionIn("garbage")).toBeUndefined();
  });

  it("fails a -32016 over without counting it against the endpoint, unless the same answer has another node condition", () => {
    expect(countsAgainstEndpoint(new NodeConditionFault(-32016, {}))).toBe(false);
    expect(countsAgainstEndpoint(new NodeConditionFault(-32005, {}))).toBe(true);
    const refusal = { id: 1, error: { code: -32016, message: "Minimum context slot has not been reached" } };
    expect(nodeConditionIn([refusal, { id: 2, error: { code: -32005, message: "Node is behind" } }])).toBe(-32005);
    expect(nodeConditionIn([refusal, { id: 2, result: 1 }])).toBe(-32016);
  });

  it("reads the slot a -32016 says the node has, only as a plain slot", () => {
    const refusal = new JsonRpcError(-32016, "Minimum context slot has not been reached", { contextSlot: 300_000_000 });
    expect(isMinContextSlotRefusal(refusal)).toBe(true);
    expect(refusal.contextSlot).toBe(300_000_000);
    expect(new JsonRpcError(-32016, "x", { contextSlot: "1e9" }).contextSlot).toBeUndefined();
    expect(new JsonRpcError(-32016, "x", { contextSlot: 2 ** 60 }).contextSlot).toBeUndefined();
    expect(new JsonRpcError(-32016, "x").contextSlot).toBeUndefined();
    expect(isMinContextSlotRefusal(new JsonRpcError(-32005, "behind"))).toBe(false);
  });

  it("reads Retry-After as seconds or a date, capped at a minute", () => {
    const now = Date.parse("2026-11-25T18:00:00Z");
    expect(parseRetryAfter("2", now)).toBe(2000);
    expect(parseRetryAfter("Wed, 25 Nov 2026 18:00:05 GMT", now)).toBe(5000);
    expect(parseRetryAfter("86400", now)).toBe(60_000);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

describe("a probe cancelled because another endpoint answered first", () => {
  it("leaves the endpoint out of rotation with its probe due, rather than closing its circuit", async () => {
    const circuit: string[] = [];
    const telemetry = {
      ...NO_TELEMETRY,
      rpcEndpointCircuit: (_label: string, state: string) => void circuit.push(state),
    };
    const health = new EndpointHealth(
      "a.example",
      { faultsToOpen: 1, firstPauseMs: 10, maxPauseMs: 10, probeGiveUpMs: 60_000 },
      telemetry,
    );
    await expect(health.run(() => Promise.reject(new RpcError("network", "down")))).rejects.toThrow("down");
    expect(circuit.at(-1)).toBe("open");
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(health.available).toBe(true);
    await expect(
      health.run(() => Promise.reject(new AttemptCancelled("another endpoint answered first"))),
    ).rejects.toBeInstanceOf(AttemptCancelled);
    // Not closed by a probe that proved nothing: the next read probes again.
    expect(circuit.at(-1)).toBe("open");
    expect(health.available).toBe(true);
    expect(await health.run(async () => "back")).toBe("back");
    expect(circuit.slice(-2)).toEqual(["half_open", "closed"]);
  });
});
