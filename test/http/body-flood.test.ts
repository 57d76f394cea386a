import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_FIXTURE_PATH, type Localnet, loadFixtureFile, startLocalnet } from "../../src/localnet/index.js";
import { type ChildGateway, startChildGateway } from "../../testkit/child-gateway.js";
import { NPM_START } from "../../testkit/npm-start.js";
import { rssStatement } from "../../testkit/rss-statement.js";
import { BULK_LINE } from "../../src/http/routes/resolve-bulk.js";
import { type SlowBody, openSlowBodies } from "../../testkit/slow-body.js";

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
const WANTED = 14_000;
const MB = 1024 * 1024;
/** README, Bounded memory: the RSS statement of the heavy routes under attack. */
const RSS_STATEMENT = rssStatement(180);

/** The soft limit on descriptors of this process (the gateway child inherits it). */
const descriptorLimit = Number(execFileSync("sh", ["-c", "ulimit -n"]).toString().trim());
/** Both ends of every connection are in one machine: the client's sockets here, the gateway's in the child. */
const ATTACK = Math.min(WANTED, descriptorLimit - 1000);

let localnet: Localnet;
let gateway: ChildGateway;
beforeAll(async () => {
  localnet = await startLocalnet({ ledger: await loadFixtureFile(DEMO_FIXTURE_PATH) });
  gateway = await startChildGateway({ RPC_URL: localnet.url });
}, 120_000);
afterAll(async () => {
  await gateway?.stop();
  await localnet?.close();
});

const TEN_NAMES = JSON.stringify({ domains: Array.from({ length: 10 }, (_, i) => (i % 2 ? "plain.sns" : `nobody${i}.sns`)) });

describe(`${ATTACK} connections sending bulk headers and no body`, () => {
  it("leave the gateway alive, answering /health and a bulk POST meanwhile, its RSS bounded", async () => {
    expect(ATTACK).toBeGreaterThan(10_000);
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
    const started = performance.now();
    let bodies: SlowBody[] = [];
    try {
      bodies = await openSlowBodies(gateway.url, ATTACK, { kind: "silent" }, { batch: 1000, withinMs: 60_000 });
      const openedMs = performance.now() - started;
      // The attack's connections held open by its client: those past the line are refused as the gateway gets to them.
      const waited = performance.now();
      while (bodies.filter((body) => body.status() === 0).length > BULK_LINE.receiving && performance.now() - waited < 15_000) {
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      attacking = false;
      await prober;
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
        `${bodies.length} silent bulk bodies opened in ${Math.round(openedMs)} ms (child gateway, ${NPM_START.nodeFlags.join(" ")}, ` +
          `ulimit -n ${descriptorLimit}):\n  answers ${counted(bodies.map((body) => body.status()))}\n` +
          `  /health ${counted(health.map((probe) => probe.status))} (worst ${worst(health)} ms)\n` +
          `  10-name POST ${counted(posts.map((probe) => probe.status))} (worst ${worst(posts)} ms)\n` +
          `  RSS idle ${(idle / MB).toFixed(1)} MB, peak ${(peak / MB).toFixed(1)} MB`,
      );
      expect(gateway.process.exitCode, gateway.output().slice(-2000)).toBeNull();
      expect(bodies.length).toBe(ATTACK);
      expect(health.length).toBeGreaterThan(0);
      expect(health.every((probe) => probe.status === 200)).toBe(true);
      expect(posts.length).toBeGreaterThan(0);
      expect(posts.every((probe) => probe.status === 200)).toBe(true);
      // Every attacker past the line was refused (503, its connection closed): none waits but the line's.
      expect(bodies.filter((body) => body.status() === 0).length).toBeLessThanOrEqual(BULK_LINE.receiving);
      expect(peak).toBeLessThan(RSS_STATEMENT);
    } finally {
      attacking = false;
      for (const body of bodies) body.destroy();
    }
    expect((await fetch(`${gateway.url}/health`)).status).toBe(200);
  }, 180_000);
});
