import { afterAll, beforeAll, expect, it } from "vitest";
import { Agent, request } from "undici";
import {
  DEMO_FIXTURE_PATH,
  type Localnet,
  identity,
  loadFixtureFile,
  startLocalnet,
} from "../../src/localnet/index.js";
import { type ChildGateway, startChildGateway } from "../../testkit/child-gateway.js";
import { QUEUE_FACTOR } from "../../src/service/bulkhead.js";
import { type Stack, startStack, describeOnNode } from "../../testkit/stack.js";

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

describeOnNode("bulkheads", () => {
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
    for (const answer of refused)
      expect([answer.retryAfter, answer.body]).toEqual(["1", '{"s":"error","result":"Service overloaded"}']);
    for (const answer of served) expect(answer.body).toBe(alone.text);
  }, 60_000);

  it("requests of a few records are never held back by the bulkhead's size", async () => {
    const answer = await stack.get("/records-v2/profile?records=SOL,url");
    expect(answer.status).toBe(200);
  });
});

/**
 * Fair shares over real HTTP, against the gateway as `npm start` runs it (a child process, so that the
 * burst arrives faster than it is answered and waits in the bulkhead's line): one client's burst of the
 * largest `/multiple-primary-domains` requests fills the wallets bulkhead and its line; another client's
 * requests meanwhile are started ahead of the burst's surplus (service/bulkhead.ts), so they are
 * answered promptly, never refused. Each RPC round trip takes 50 ms, as a remote node's would.
 */
describeOnNode("bulkheads: each client its fair share", () => {
  const BURST = 1024;
  const HOG = "198.51.100.7";
  const OTHER = "203.0.113.9";
  const wallets = Array.from({ length: 100 }, (_, i) => ["alice", "bob", "carol", "dave", "mallory"][i % 5]!);
  let localnet: Localnet;
  let child: ChildGateway;
  let burstAgent: Agent;
  let walletsPath: string;
  beforeAll(async () => {
    walletsPath = `/multiple-primary-domains/${wallets.map((name) => identity(name).address).join(",")}`;
    localnet = await startLocalnet({ ledger: await loadFixtureFile(DEMO_FIXTURE_PATH), latencyMs: 50 });
    // Clients told apart by the header a proxy would set; the cost limit is another test's.
    child = await startChildGateway({ RPC_URL: localnet.url, CLIENT_IP_HEADER: "x-real-ip", RPC_RATE_LIMIT: "0" });
    burstAgent = new Agent({ connections: BURST, pipelining: 1 });
  }, 60_000);
  afterAll(async () => {
    await burstAgent?.destroy();
    await child?.stop();
    await localnet?.close();
  });

  it(`one client's burst of ${BURST} × 100 wallets: another client's requests meanwhile all 200, ahead of the burst's line`, async () => {
    const statuses = new Map<number, number>();
    let burstOver = false;
    let burstAnswered = 0;
    let burstDropped = false;
    let dropped = 0;
    const started = performance.now();
    const burst = Promise.all(
      Array.from({ length: BURST }, async () => {
        try {
          const answer = await request(`${child.url}${walletsPath}`, {
            dispatcher: burstAgent,
            headers: { "x-real-ip": HOG },
            headersTimeout: 120_000,
            bodyTimeout: 120_000,
          });
          await answer.body.dump();
          // Served, not refused (past its share of the line the burst is refused at once).
          if (answer.statusCode === 200) burstAnswered++;
          statuses.set(answer.statusCode, (statuses.get(answer.statusCode) ?? 0) + 1);
        } catch (error) {
          // Only what the drop below ends; any other failure is the test's.
          if (!burstDropped) throw error;
          dropped++;
        }
      }),
    ).finally(() => (burstOver = true));
    // Once the burst is in the line, the other client asks, one request after another.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const others: { status: number; ms: number; duringBurst: boolean; overtaken: number }[] = [];
    for (let i = 0; i < 8; i++) {
      const sent = performance.now();
      const before = burstAnswered;
      const answer = await fetch(`${child.url}${walletsPath}`, { headers: { "x-real-ip": OTHER } });
      await answer.text();
      // Burst requests served while this one waited: in one line, every one that arrived before it.
      others.push({
        status: answer.status,
        ms: Math.round(performance.now() - sent),
        duringBurst: !burstOver,
        overtaken: burstAnswered - before,
      });
    }
    // The other client's requests, all sent and answered while the burst waited, are what this measures: the
    // rest of the burst is dropped rather than drained (draining it took 15 of the test's 19 s and measured
    // nothing; the child is stopped after this test).
    burstDropped = true;
    await burstAgent.destroy();
    await burst;
    console.log(
      `fair shares: burst ${[...statuses].map(([s, n]) => `${s}×${n}`).join(" ")}, ${dropped} dropped unanswered after ${((performance.now() - started) / 1000).toFixed(1)} s; other client: ` +
        others
          .map(
            (o) =>
              `${o.status} ${o.ms} ms, ${o.overtaken} of the burst served meanwhile${o.duringBurst ? "" : " (after)"}`,
          )
          .join("; "),
    );
    expect(others.filter((o) => o.duringBurst).length).toBeGreaterThan(1);
    for (const other of others) expect(other.status).toBe(200);
    // Started at the first place given back, ahead of the burst's line: a round of places (10 requests
    // of 100 wallets) or a few, not the hundreds that queued before it (before the fair shares: 684 of the
    // burst, 12.2 s). Measured over five runs on Node 20.20 and 24.21: 19–20 overtaken at most, the slowest
    // answer 385, 393, 647 and 1,267 ms, and once 50 in 3.5 s for the first request on a machine loaded by
    // other processes; the statements are twice the worst of those, still well below the unfair line's.
    expect(Math.max(...others.map((o) => o.overtaken))).toBeLessThan(100);
    expect(Math.max(...others.map((o) => o.ms))).toBeLessThan(8_000);
  }, 180_000);
});
