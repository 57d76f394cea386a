import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_FIXTURE_PATH, loadFixtureFile } from "../../src/localnet/index.js";
import { SOL_TLD_CUTOFF_SLOT } from "../../src/sns/constants.js";
import { getAsHost } from "../../testkit/host-request.js";
import { sampleValue } from "../../testkit/prometheus.js";
import { type Answer, type Stack, describeOnNode, startStack } from "../../testkit/stack.js";

// Every answer that read the chain says from when: `X-Context-Slot`, the lowest `context.slot` of the
// reads it came from; one served from the resolve cache also says how old it is (`Age`). The localnet's
// slot is moved between requests (its ledger's `slot`), so each slot seen is the one of a known read.

const slotOf = (answer: Answer): number | null => {
  const value = answer.headers.get("x-context-slot");
  return value === null ? null : Number(value);
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface BulkItem {
  readonly domain: string;
  readonly status: number;
  readonly slot?: number;
}
const postNames = (stack: Stack, path: string, domains: readonly string[]) =>
  stack.get(path, { method: "POST", body: JSON.stringify({ domains }) });

describe("X-Context-Slot without the resolve cache", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH), { RESOLVE_CACHE_TTL_MS: "0" });
  });
  afterAll(() => stack?.close());

  it("a resolution carries the slot its reads were answered at, and a later one the later slot; no Age", async () => {
    stack.localnet.ledger.slot = 300_001_000;
    const first = await stack.get("/resolve/plain.sns");
    expect(first.status).toBe(200);
    expect(slotOf(first)).toBe(300_001_000);
    expect(first.headers.get("age")).toBeNull();
    stack.localnet.ledger.slot = 300_002_500;
    const second = await stack.get("/resolve/plain.sns");
    expect(slotOf(second)).toBe(300_002_500);
    expect(second.headers.get("age")).toBeNull();
  });

  it("an answer of the chain that is an error carries it too (a missing domain)", async () => {
    stack.localnet.ledger.slot = 300_003_000;
    const answer = await stack.get("/resolve/nobody.sns");
    expect(answer.status).toBe(404);
    expect(slotOf(answer)).toBe(300_003_000);
  });

  it("other routes that read the chain carry it (records, reverse lookup)", async () => {
    stack.localnet.ledger.slot = 300_004_000;
    const records = await stack.get("/records-v2/bonfida.sns?records=SOL");
    expect(slotOf(records)).toBe(300_004_000);
  });

  it.each([
    ["a key derivation", "/domain-key/bonfida.sns"],
    ["the record types", "/types/record"],
    ["liveness", "/health"],
    ["input refused before any read", "/resolve/a.b.c.sns"],
  ])("%s carries neither X-Context-Slot nor Age", async (_, path) => {
    const answer = await stack.get(path);
    expect(answer.headers.get("x-context-slot")).toBeNull();
    expect(answer.headers.get("age")).toBeNull();
  });

  it("bulk: each item that read the chain carries its slot, the answer the lowest; refused inputs none", async () => {
    stack.localnet.ledger.slot = 300_005_000;
    const answer = await postNames(stack, "/resolve", ["plain.sns", "nobody.sns", "bonfida.com"]);
    expect(answer.status).toBe(200);
    const items = (answer.body as { result: BulkItem[] }).result;
    expect(items.map((item) => item.slot)).toEqual([300_005_000, 300_005_000, undefined]);
    expect(slotOf(answer)).toBe(300_005_000);
  });
});

describe("X-Context-Slot and Age with the resolve cache on", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH), { RESOLVE_CACHE_TTL_MS: "60000" });
  });
  afterAll(() => stack?.close());

  it("a cache hit keeps the slot it was read at and says its Age in whole seconds", async () => {
    stack.localnet.ledger.slot = 300_010_000;
    const read = await stack.get("/resolve/v2-sol.sns");
    expect(slotOf(read)).toBe(300_010_000);
    expect(read.headers.get("age")).toBeNull();
    stack.localnet.ledger.slot = 300_011_000;
    await sleep(1100);
    // The second is a repeat (on Node answered before the app), the third goes through the app (a query).
    for (const path of ["/resolve/v2-sol.sns", "/resolve/v2-sol.sns?via=app"]) {
      const hit = await stack.get(path);
      expect(hit.status, path).toBe(200);
      expect(slotOf(hit), path).toBe(300_010_000);
      const age = Number(hit.headers.get("age"));
      expect(age, path).toBeGreaterThanOrEqual(1);
      expect(age, path).toBeLessThan(60);
    }
  });

  it("bulk: a cached name keeps its older slot, a new one has the newer; the answer says the lowest", async () => {
    stack.localnet.ledger.slot = 300_020_000;
    expect(slotOf(await stack.get("/resolve/bonfida.sns"))).toBe(300_020_000);
    stack.localnet.ledger.slot = 300_021_000;
    const answer = await postNames(stack, "/resolve", ["bonfida.sns", "dex.bonfida.sns"]);
    const items = (answer.body as { result: BulkItem[] }).result;
    expect(items.map((item) => item.slot)).toEqual([300_020_000, 300_021_000]);
    expect(slotOf(answer)).toBe(300_020_000);
  });
});

describeOnNode("answers by cache outcome and their age in /metrics", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH), { RESOLVE_CACHE_TTL_MS: "60000" });
  });
  afterAll(() => stack?.close());

  it("counts misses (a key, a missing domain), then hits (before the app and in it) with their age; other answers as none", async () => {
    const metrics = async () => (await stack.get("/metrics")).text;
    await stack.get("/resolve/plain.sns");
    await stack.get("/resolve/plain.sns");
    await stack.get("/resolve/plain.sns?via=app");
    await stack.get("/domain-key/plain.sns");
    expect((await stack.get("/resolve/nobody.sns")).status).toBe(404);
    const text = await metrics();
    // The missing domain was resolved too: a miss, as the key was.
    expect(sampleValue(text, "sns_gateway_answers_total", { cache: "miss" })).toBe(2);
    expect(sampleValue(text, "sns_gateway_answers_total", { cache: "hit" })).toBe(2);
    expect(sampleValue(text, "sns_gateway_answers_total", { cache: "coalesced" })).toBe(0);
    expect(sampleValue(text, "sns_gateway_answers_total", { cache: "refreshed" })).toBe(0);
    expect(sampleValue(text, "sns_gateway_answers_total", { cache: "none" })).toBeGreaterThanOrEqual(1);
    expect(sampleValue(text, "sns_gateway_answer_age_seconds_count", {})).toBe(2);
    expect(sampleValue(text, "sns_gateway_answer_age_seconds_bucket", { le: "+Inf" })).toBe(2);
  });
});

describe("slots of answers served from the resolve cache", () => {
  let stack: Stack;
  let legacy: Stack;
  beforeAll(async () => {
    // Refreshed ahead 3 s into its 4 s life (on Node; Workers never refresh ahead).
    [stack, legacy] = await Promise.all([
      startStack(await loadFixtureFile(DEMO_FIXTURE_PATH), { RESOLVE_CACHE_TTL_MS: "4000" }),
      startStack(await loadFixtureFile(DEMO_FIXTURE_PATH), {
        RESOLVE_CACHE_TTL_MS: "60000",
        LEGACY_HOSTS: "sdk-proxy.example",
      }),
    ]);
  });
  afterAll(() => Promise.all([stack?.close(), legacy?.close()]));

  it("bulk: a name answered from an entry keeps that entry's slot, though a refresh ahead replaces it before the request is answered", async () => {
    stack.localnet.ledger.slot = 300_300_000;
    expect(slotOf(await stack.get("/resolve/plain.sns"))).toBe(300_300_000);
    await sleep(3200);
    stack.localnet.ledger.slot = 300_301_000;
    // bonfida.sns (tokenized, never seen) takes three round trips: plain.sns's refresh lands meanwhile.
    const answer = await postNames(stack, "/resolve", ["plain.sns", "bonfida.sns"]);
    const items = (answer.body as { result: BulkItem[] }).result;
    expect(items.map((item) => item.slot)).toEqual([300_300_000, 300_301_000]);
    expect(slotOf(answer)).toBe(300_300_000);
  });

  it("a .sol name answered from the cache after the cutoff slot read keeps its slot and Age", async () => {
    // One slot before the cutoff: no finalized slot may be reused, so every .sol request reads one first.
    stack.localnet.ledger.slot = SOL_TLD_CUTOFF_SLOT - 1;
    const read = await stack.get("/resolve/dex.bonfida.sol");
    expect(read.status).toBe(200);
    expect(slotOf(read)).toBe(SOL_TLD_CUTOFF_SLOT - 1);
    const hit = await stack.get("/resolve/dex.bonfida.sol");
    expect(hit.status).toBe(200);
    expect(slotOf(hit)).toBe(SOL_TLD_CUTOFF_SLOT - 1);
    expect(Number(hit.headers.get("age"))).toBeGreaterThanOrEqual(0);
    expect(hit.headers.get("age")).not.toBeNull();
  });

  it("legacy /resolve: a cache hit carries the slot it was read at and its Age", async () => {
    legacy.localnet.ledger.slot = 300_310_000;
    const read = await getAsHost(legacy.gateway.url, "/resolve/bonfida", "sdk-proxy.example");
    expect(read.status).toBe(200);
    expect(slotOf(read)).toBe(300_310_000);
    legacy.localnet.ledger.slot = 300_311_000;
    const hit = await getAsHost(legacy.gateway.url, "/resolve/bonfida", "sdk-proxy.example");
    expect(hit.text).toBe(read.text);
    expect(slotOf(hit)).toBe(300_310_000);
    expect(hit.headers.get("age")).not.toBeNull();
  });
});

describe("/safe-resolve with SRS on: an answer from two cache entries", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH), {
      RESOLVE_CACHE_TTL_MS: "60000",
      SOL_SRS_RESOLUTION: "on",
    });
  });
  afterAll(() => stack?.close());

  it("says the lower slot and the older entry's Age, one name (GET) or many (POST)", async () => {
    // `/resolve` caches the SRS side at one slot; `/safe-resolve` then reads the name-service side later.
    stack.localnet.ledger.slot = 300_500_000;
    expect(slotOf(await stack.get("/resolve/plain.sol"))).toBe(300_500_000);
    await sleep(2100);
    stack.localnet.ledger.slot = 300_600_000;
    const half = await stack.get("/safe-resolve/plain.sol");
    expect(half.status).toBe(200);
    expect(slotOf(half)).toBe(300_500_000);
    // Both sides from the cache now: the older (lower-slot) entry decides the slot and the Age.
    const hit = await stack.get("/safe-resolve/plain.sol");
    expect(hit.status).toBe(200);
    expect(slotOf(hit)).toBe(300_500_000);
    expect(Number(hit.headers.get("age"))).toBeGreaterThanOrEqual(2);
    const bulk = await postNames(stack, "/safe-resolve", ["plain.sol"]);
    expect(bulk.status).toBe(200);
    expect((bulk.body as { result: BulkItem[] }).result.map((item) => item.slot)).toEqual([300_500_000]);
    expect(slotOf(bulk)).toBe(300_500_000);
  });
});
