import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_FIXTURE_PATH, type Localnet, loadFixtureFile, startLocalnet } from "../../src/localnet/index.js";
import { type ChildGateway, startChildGateway } from "../../testkit/child-gateway.js";
import { NPM_START } from "../../testkit/npm-start.js";
import { rssStatement } from "../../testkit/rss-statement.js";
import { BULK_LINE } from "../../src/http/routes/resolve-bulk.js";
import { floodInChild } from "../../testkit/slow-body.js";

/**
 * One client opening ~14,000 connections that each send `POST /resolve`
 * headers with `Content-Length: 40` and no body, against the gateway as
 * `npm start` runs it (compiled, its node flags), in a child process whose
 * RSS is read from the kernel. Every such request used to wait for a bulk
 * place with its socket, request and context held: the heap limit was
 * reached. Now the requests receiving their body are a bounded line
 * (src/service/receiving-bodies.ts), the rest refused at once and their
 * connections closed; meanwhile `/health` and a bulk POST that sends its
 * body are answered. Connections only to 127.0.0.1, bounded by count and
 * time. Node only: it is about the Node process.
 */
const ATTACK = 14_000;
const MB = 1024 * 1024;
/** docs/performance.md, Memory: the RSS statement under attack (hostile answers, hostile servers, this flood). */
const RSS_STATEMENT = rssStatement(180);

let localnet: Localnet;
let gateway: ChildGateway;
beforeAll(async () => {
  localnet = await startLocalnet({ ledger: await loadFixtureFile(DEMO_FIXTURE_PATH) });
  // Both ends of every connection are in this machine: the attack's client and the gateway each get
  // their soft limit on descriptors raised to the hard one (testkit/descriptor-limit.ts).
  gateway = await startChildGateway({ RPC_URL: localnet.url }, undefined, { raiseDescriptorLimit: true });
}, 120_000);
afterAll(async () => {
  await gateway?.stop();
  await localnet?.close();
});

const TEN_NAMES = JSON.stringify({
  domains: Array.from({ length: 10 }, (_, i) => (i % 2 ? "plain.sns" : `nobody${i}.sns`)),
});

describe("14,000 connections sending bulk headers and no body", () => {
  it("leave the gateway alive, answering /health and a bulk POST meanwhile, its RSS bounded", async () => {
    const idle = gateway.rss();
    const probes: { path: string; status: number; ms: number }[] = [];
    let attacking = true;
    // Another client, meanwhile: a /health and a 10-name POST, one after the other, for as long as the attack runs.
    const prober = (async () => {
      while (attacking) {
        for (const [path, init] of [
          ["/health", undefined],
          ["/resolve", { method: "POST", body: TEN_NAMES }],
        ] as const) {
          const sent = performance.now();
          const status = await fetch(`${gateway.url}${path}`, { ...init, signal: AbortSignal.timeout(10_000) }).then(
            async (answer) => (await answer.arrayBuffer(), answer.status),
            () => 0,
          );
          probes.push({ path, status, ms: performance.now() - sent });
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    try {
      // From a process of its own; it holds its connections open until at most the line's are unanswered.
      const report = await floodInChild({
        url: gateway.url,
        count: ATTACK,
        options: { kind: "silent" },
        batch: 500,
        withinMs: 100_000,
        settleUnanswered: BULK_LINE.receiving,
        settleMs: 15_000,
      });
      attacking = false;
      await prober;
      const alive = gateway.process.exitCode === null && gateway.process.signalCode === null;
      expect(
        alive,
        `the gateway exited: ${/FATAL ERROR[^\n]*/.exec(gateway.errorOutput())?.[0] ?? gateway.errorOutput().slice(-1500)}`,
      ).toBe(true);
      const peak = gateway.peakRss();
      const health = probes.filter((probe) => probe.path === "/health");
      const posts = probes.filter((probe) => probe.path === "/resolve");
      const worst = (list: typeof probes) => Math.round(Math.max(...list.map((probe) => probe.ms)));
      const counted = (list: readonly number[]) => {
        const counts = new Map<number, number>();
        for (const status of list) counts.set(status, (counts.get(status) ?? 0) + 1);
        return [...counts].map(([status, n]) => `${status}×${n}`).join(" ");
      };
      console.log(
        `${report.opened} silent bulk bodies opened in ${Math.round(report.openedMs)} ms (child gateway, ${NPM_START.nodeFlags.join(" ")}; ` +
          `client's ulimit -n ${report.descriptorLimit}):\n` +
          `  answers ${Object.entries(report.statuses)
            .map(([status, n]) => `${status}×${n}`)
            .join(" ")}\n` +
          `  /health ${counted(health.map((probe) => probe.status))} (worst ${worst(health)} ms)\n` +
          `  10-name POST ${counted(posts.map((probe) => probe.status))} (worst ${worst(posts)} ms)\n` +
          `  RSS idle ${(idle / MB).toFixed(1)} MB, peak ${(peak / MB).toFixed(1)} MB`,
      );
      expect(report.opened).toBe(ATTACK);
      expect(health.length).toBeGreaterThan(0);
      expect(health.every((probe) => probe.status === 200)).toBe(true);
      expect(posts.length).toBeGreaterThan(0);
      expect(posts.every((probe) => probe.status === 200)).toBe(true);
      // Every attacker past the line was refused (503, its connection closed): none waits but the line's.
      expect(report.statuses["0"] ?? 0).toBeLessThanOrEqual(BULK_LINE.receiving);
      expect(peak).toBeLessThan(RSS_STATEMENT);
    } finally {
      attacking = false;
    }
    expect((await fetch(`${gateway.url}/health`)).status).toBe(200);
  }, 180_000);
});
