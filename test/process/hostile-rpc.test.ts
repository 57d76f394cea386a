import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rssStatement } from "../../testkit/rss-statement.js";
import {
  DEMO_FIXTURE_PATH,
  type Localnet,
  identity,
  loadFixtureFile,
  startLocalnet,
} from "../../src/localnet/index.js";
import { type ChildGateway, compiledEntry, startChildGateway } from "../../testkit/child-gateway.js";
import { NPM_START } from "../../testkit/npm-start.js";
import { type HostileRpc, type HostileShape, startHostileRpc } from "../../testkit/hostile-rpc.js";
import { request } from "../../testkit/stack.js";

/**
 * An attacker names their own server with `rpc` and answers with the worst
 * shapes they can. The gateway runs as `npm start` runs it (compiled, its V8
 * heap limits) in a child process whose peak RSS is read from the kernel.
 */
const RPC_TIMEOUT_MS = 2000;
/** README, Performance: under hostile answers the peak RSS stays under 180 MB (measured 139–169.8 MB on Node 22). */
const RSS_BUDGET = rssStatement(180);
const MB = 1024 * 1024;

let localnet: Localnet;
let hostile: HostileRpc;
let gateway: ChildGateway;
const rows: string[] = [];

// tsc takes seconds alone and much longer on a busy machine: not inside a test's own time limit.
beforeAll(() => void compiledEntry(), 180_000);
beforeAll(async () => {
  localnet = await startLocalnet({ ledger: await loadFixtureFile(DEMO_FIXTURE_PATH) });
  hostile = await startHostileRpc();
  gateway = await startChildGateway({
    RPC_URL: localnet.url,
    ALLOW_PRIVATE_RPC_OVERRIDE: "true",
    RPC_TIMEOUT_MS: String(RPC_TIMEOUT_MS),
  });
  for (let i = 0; i < 20; i++) await request(gateway.url, "/resolve/plain.sns");
  rows.push(`warm: peak RSS ${(gateway.peakRss() / MB).toFixed(1)} MB`);
}, 120_000);

afterAll(async () => {
  console.log(`hostile RPC answers (child gateway, ${NPM_START.nodeFlags.join(" ")}):\n  ${rows.join("\n  ")}`);
  await gateway?.stop();
  await hostile?.close();
  await localnet?.close();
});

const bob = identity("bob").address;

/**
 * `count` requests through the hostile endpoint while one normal request uses
 * RPC_URL. Each is a 502; where answers in flight fill the memory budget
 * (`mayOverload`), some are refused at once instead: 503 with Retry-After.
 */
async function attack(shape: HostileShape, count: number, tag: string = shape, mayOverload = false): Promise<void> {
  const started = performance.now();
  const attacks = Array.from({ length: count }, (_, i) =>
    request(gateway.url, `/resolve/plain.sns?rpc=${encodeURIComponent(hostile.urlFor(shape, `${tag}-${i}`))}`),
  );
  const normal = request(gateway.url, "/resolve/plain.sns");
  const answers = await Promise.all(attacks);
  const ms = performance.now() - started;
  const statuses = [...new Set(answers.map((answer) => answer.status))];
  rows.push(
    `${shape} ×${count}: ${statuses.join("/")} in ${Math.round(ms)} ms, peak RSS ${(gateway.peakRss() / MB).toFixed(1)} MB`,
  );
  for (const answer of answers) {
    if (answer.status === 503) {
      expect(answer.body).toEqual({ s: "error", result: "Service overloaded" });
      expect(answer.headers.get("retry-after")).toBe("1");
    } else {
      expect(answer.body).toEqual({ s: "error", result: "RPC unavailable" });
    }
  }
  if (mayOverload) expect(statuses.filter((status) => status !== 502 && status !== 503)).toEqual([]);
  else expect(statuses).toEqual([502]);
  expect((await normal).body).toEqual({ s: "ok", result: bob });
  // Bounded by the RPC deadline, with room for a loaded machine; not a performance assertion.
  expect(ms).toBeLessThan(RPC_TIMEOUT_MS + 8000);
  expect(gateway.process.exitCode).toBeNull();
  expect(gateway.peakRss()).toBeLessThan(RSS_BUDGET);
}

describe("a hostile rpc endpoint cannot crash, flood or starve the gateway", () => {
  it("15 MB of [[],[],…] is refused before it is parsed", () => attack("flat-arrays", 8));
  it("4 MB of nested arrays is refused at the first level too deep", () => attack("deep-nesting", 8));
  it("answers of 50 MB, 64 at once, are cut at the answer limit and the memory budget", () =>
    attack("oversized", 64, "oversized", true));
  it("12 MB error messages are refused by size", () => attack("huge-error-12mb", 8, "huge-error-12mb", true));
  it("a slow drip ends at the RPC deadline", () => attack("slow-drip", 4));
  it("a wrong result shape is a 502", () => attack("wrong-shape", 1));

  it("a large JSON-RPC error reaches the log as a short, printable excerpt", async () => {
    // Lines of the attacks before are written in blocks, at most 100 ms late: let them out first.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const before = gateway.output().length;
    await attack("huge-error", 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const logged = gateway.output().slice(before);
    rows.push(`huge-error: ${logged.length} bytes of log for ~2.6 MB of error text`);
    expect(logged).toContain("FAKE LOG LINE");
    expect(logged.length).toBeLessThan(8 * 1024);
    expect(logged).not.toContain("\\u001b");
  });

  it("every attack again, all at once", async () => {
    await Promise.all([
      attack("flat-arrays", 4, "again", true),
      attack("deep-nesting", 4, "again", true),
      attack("oversized", 16, "again", true),
      attack("huge-error", 4, "again", true),
    ]);
  });
});
