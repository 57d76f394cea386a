import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent, request } from "undici";
import { DEMO_FIXTURE_PATH, loadFixtureFile } from "../../src/localnet/index.js";
import { QUEUE_FACTOR } from "../../src/service/bulkhead.js";
import { type Stack, startStack } from "../../testkit/stack.js";

/**
 * The heavy routes' bulkheads over real HTTP: past the work under way and the work waiting, a request
 * is answered at once with 503 `Service overloaded` and `Retry-After`; every other answer is the one
 * it gets alone. Node only: the Workers build has no shared state across requests to limit this way.
 */
const TYPES = ["SOL", "ETH", "BTC", "email", "url", "discord", "github", "twitter", "pic", "IPFS"];
const records = Array.from({ length: 100 }, (_, i) => TYPES[i % TYPES.length]).join(",");
const PATH = `/records-v2/profile?records=${records}`;

let stack: Stack;
let agent: Agent;
beforeAll(async () => {
  // 100 records under way, 100 × QUEUE_FACTOR waiting: one request at a time, QUEUE_FACTOR waiting.
  stack = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH), { BULKHEAD_RECORDS: "100" });
  agent = new Agent({ connections: 1024, pipelining: 1 });
});
afterAll(async () => {
  await agent?.close();
  await stack?.close();
});

describe("bulkheads", () => {
  it("a burst past the work under way and waiting: 503 Service overloaded with Retry-After, the rest as alone", async () => {
    const alone = await stack.get(PATH);
    expect(alone.status).toBe(200);
    const burst = QUEUE_FACTOR * 3;
    const answers = await Promise.all(
      Array.from({ length: burst }, async () => {
        const answer = await request(`${stack.gateway.url}${PATH}`, { dispatcher: agent });
        return { status: answer.statusCode, retryAfter: answer.headers["retry-after"], body: await answer.body.text() };
      }),
    );
    const refused = answers.filter((answer) => answer.status === 503);
    const served = answers.filter((answer) => answer.status === 200);
    expect(refused.length + served.length).toBe(burst);
    expect(refused.length).toBeGreaterThan(0);
    expect(served.length).toBeGreaterThan(QUEUE_FACTOR);
    for (const answer of refused) expect([answer.retryAfter, answer.body]).toEqual(["1", '{"s":"error","result":"Service overloaded"}']);
    for (const answer of served) expect(answer.body).toBe(alone.text);
  }, 60_000);

  it("requests of a few records are never held back by the bulkhead's size", async () => {
    const answer = await stack.get("/records-v2/profile?records=SOL,url");
    expect(answer.status).toBe(200);
  });
});
