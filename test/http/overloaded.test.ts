import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import {
  DEMO_FIXTURE_PATH,
  type Localnet,
  identity,
  loadFixtureFile,
  startLocalnet,
} from "../../src/localnet/index.js";
import { type RunningGateway, startGateway } from "../../src/platform/node/gateway.js";
import { OVERLOADED_RETRY_AFTER_SECONDS } from "../../src/http/answer/classify.js";
import { type HostileRpc, startHostileRpc } from "../../testkit/hostile-rpc.js";
import { captureLog } from "../../testkit/log-capture.js";
import { request, describeOnNode } from "../../testkit/stack.js";

// Answers of `rpc` overrides share 8 MiB of answer memory (src/gateway.ts,
// ANSWER_MEMORY). Two endpoints each holding 2.75 MiB of an unfinished
// answer leave less than another answer needs: a third request is refused at
// once as an overload of this gateway (503 with Retry-After), not reported
// as an RPC outage. On Workers each request has its own endpoints and budget.

describeOnNode("a full answer memory", () => {
  let localnet: Localnet;
  let hostile: HostileRpc;
  let gateway: RunningGateway;
  const log = captureLog();
  const overridePath = (tag: number) =>
    `/resolve/plain.sns?rpc=${encodeURIComponent(hostile.urlFor("held-2.75mb", tag))}`;

  beforeAll(async () => {
    localnet = await startLocalnet({ ledger: await loadFixtureFile(DEMO_FIXTURE_PATH) });
    hostile = await startHostileRpc();
    const config = loadConfig({
      RPC_URL: localnet.url,
      PORT: "0",
      HOST: "127.0.0.1",
      ALLOW_PRIVATE_RPC_OVERRIDE: "true",
      RPC_TIMEOUT_MS: "3000",
    });
    gateway = await startGateway(config, log.logger);
  });
  afterAll(async () => {
    await gateway?.close();
    await hostile?.close();
    await localnet?.close();
  });

  it("is answered 503 Service overloaded with Retry-After, logged as OVERLOADED, while RPC_URL still answers", async () => {
    const holding = [0, 1].map((tag) => request(gateway.url, overridePath(tag)));
    // Both held answers are in: their bytes count against the budget from the first chunk.
    for (let waited = 0; (hostile.received.get("held-2.75mb") ?? 0) < 2 && waited < 5000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await new Promise((resolve) => setTimeout(resolve, 300));

    const refused = await request(gateway.url, overridePath(2), { headers: { "X-Request-Id": "overloaded-1" } });
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({ s: "error", result: "Service overloaded" });
    expect(refused.headers.get("retry-after")).toBe(String(OVERLOADED_RETRY_AFTER_SECONDS));
    expect(refused.headers.get("cache-control")).toBe("no-store");
    expect(refused.headers.get("access-control-allow-origin")).toBe("*");
    expect(refused.headers.get("x-request-id")).toBe("overloaded-1");

    // The operator's endpoint has its own budget.
    expect((await request(gateway.url, "/resolve/plain.sns")).body).toEqual({
      s: "ok",
      result: identity("bob").address,
    });

    // The held answers end at the RPC deadline: an RPC failure.
    for (const held of await Promise.all(holding)) expect(held.status).toBe(502);
    await new Promise((resolve) => setImmediate(resolve));
    const line = log.lines().find((entry) => entry.msg === "request" && entry.reqId === "overloaded-1");
    expect(line).toMatchObject({ status: 503, error: "OVERLOADED", route: "/resolve/:domain", rpcOverride: true });
    expect(log.lines().some((entry) => entry.msg === "request failed" && entry.reqId === "overloaded-1")).toBe(true);
  });
});
