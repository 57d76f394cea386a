import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_FIXTURE_PATH, loadFixtureFile, startLocalnet, type Localnet } from "../../../src/localnet/index.js";
import { type WorkerdGateway, startWorkerdGateway } from "../../../testkit/workerd-gateway.js";

// On Workers, `/resolve` answers go through the Cache API (src/http/answer/edge-cache.ts): a second request
// for the same URL is answered from it. That answer is this request's own: its request id, and a log line.

let localnet: Localnet;
let gateway: WorkerdGateway;
const lines: string[] = [];

beforeAll(async () => {
  localnet = await startLocalnet({ ledger: await loadFixtureFile(DEMO_FIXTURE_PATH) });
  gateway = await startWorkerdGateway(
    { RPC_URL: localnet.url, LOG_LEVEL: "info", RESOLVE_CACHE_TTL_MS: "60000" },
    { indexObject: false, onLog: (line) => lines.push(line) },
  );
});
afterAll(async () => {
  await gateway?.close();
  await localnet?.close();
});

/** The request lines logged so far for `route`. */
const requestLines = (route: string) =>
  lines
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as { msg?: string; route?: string; reqId?: string; status?: number }];
      } catch {
        return [];
      }
    })
    .filter((line) => line.msg === "request" && line.route === route);

describe("the Workers edge cache", () => {
  it("answers a repeat with the repeat's own request id, and logs it as any answer", async () => {
    const path = "/resolve/plain.sns";
    const first = await fetch(`${gateway.url}${path}`, { headers: { "x-request-id": "edge-first" } });
    expect(first.status).toBe(200);
    expect(first.headers.get("x-request-id")).toBe("edge-first");
    const body = await first.text();
    // The first answer is kept in the background (waitUntil): ask until a repeat is answered from the cache.
    let repeat: Response | undefined;
    for (let attempt = 0; attempt < 50 && repeat === undefined; attempt++) {
      const answer = await fetch(`${gateway.url}${path}`, { headers: { "x-request-id": `edge-${attempt}` } });
      if (answer.headers.get("cf-cache-status") === "HIT" || answer.headers.get("x-request-id") === "edge-first")
        repeat = answer;
      else {
        await answer.arrayBuffer();
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    expect(repeat, "a repeat answered from the edge cache").toBeDefined();
    const repeatId = repeat!.headers.get("x-request-id");
    expect(repeatId).not.toBe("edge-first");
    expect(repeatId).toMatch(/^edge-\d+$/);
    expect(repeat!.status).toBe(200);
    expect(await repeat!.text()).toBe(body);
    expect(repeat!.headers.get("cache-control")).toBe(first.headers.get("cache-control"));
    expect(repeat!.headers.get("access-control-allow-origin")).toBe("*");
    // Every answer, the cached one included, has its line: the ids the client saw are all logged.
    await expect.poll(() => requestLines("/resolve/:domain").map((line) => line.reqId)).toContain(repeatId);
    expect(requestLines("/resolve/:domain").map((line) => line.reqId)).toContain("edge-first");
  });

  it("keeps an answer without the request id and rate-limit window of the request it was first given to", async () => {
    const path = "/resolve/bonfida.sns";
    const first = await fetch(`${gateway.url}${path}`, { headers: { "x-request-id": "kept-first" } });
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-limit")).not.toBeNull();
    await first.arrayBuffer();
    // Kept in the background (waitUntil): read the cache until the entry is there.
    let kept: Record<string, string> | undefined;
    for (let attempt = 0; attempt < 50 && kept === undefined; attempt++) {
      kept = await gateway.edgeKept(`${gateway.url}${path}`);
      if (kept === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(kept, "the answer kept at the edge").toBeDefined();
    expect(kept!["cache-control"]).toBe(first.headers.get("cache-control"));
    const perRequest = Object.keys(kept!).filter((name) => name === "x-request-id" || name.startsWith("ratelimit-"));
    expect(perRequest).toEqual([]);
  });
});
