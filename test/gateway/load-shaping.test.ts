import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_FIXTURE_PATH, identity, loadFixtureFile, transferDomainNft } from "../../src/localnet/index.js";
import { deriveDomainKey, deriveNftRecordKey } from "../../src/sns/derive.js";
import { sampleValue } from "../../testkit/prometheus.js";
import { type Stack, startStack, describeOnNode } from "../../testkit/stack.js";

// Coalescing, batching and the optional response cache, observed from the
// RPC side: the localnet counts every HTTP request it receives.

// Sharing reads across concurrent requests is Node-only: Workers forbid sharing promises between requests.
describeOnNode("coalescing and batching (cache off)", () => {
  let stack: Stack;
  beforeAll(async () => {
    // A wide gathering window keeps these assertions independent of machine load.
    stack = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH), { BATCH_WINDOW_MS: "50" });
    stack.localnet.setLatency(30);
  });
  afterAll(() => stack.close());

  it("concurrent requests for one name share one resolution", async () => {
    await Promise.all(Array.from({ length: 40 }, () => stack.get("/health")));
    // A slow node keeps the first resolution in flight while every other request arrives.
    stack.localnet.setLatency(1000);
    stack.localnet.resetStats();
    try {
      const answers = await Promise.all(Array.from({ length: 40 }, () => stack.get("/resolve/plain.sns")));
      expect(new Set(answers.map((a) => a.text)).size).toBe(1);
      expect(stack.localnet.stats.methods.getMultipleAccounts).toBe(1);
    } finally {
      stack.localnet.setLatency(30);
    }
  });

  it("concurrent resolutions of different names are merged into few requests", async () => {
    const names = [
      "plain",
      "v1-sol",
      "v2-sol",
      "stale-v2",
      "bad-v1-sig",
      "redeemed",
      "dex.bonfida",
      "pay.v2-sol",
      "nope",
      "nada",
    ];
    // Open the client's keep-alive connections first, so the burst arrives together.
    await Promise.all(names.map(() => stack.get("/health")));
    stack.localnet.resetStats();
    const answers = await Promise.all(names.map((name) => stack.get(`/resolve/${name}.sns`)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 404, 404]);
    expect(stack.localnet.stats.httpRequests).toBeLessThanOrEqual(3);
  });

  it("one failing resolution does not fail the others in its batch", async () => {
    stack.localnet.resetStats();
    const [good, malformed, missing] = await Promise.all([
      stack.get("/resolve/plain.sns"),
      stack.get("/resolve/invalid-roa.sns"),
      stack.get("/resolve/missing.sns"),
    ]);
    expect(good.body).toEqual({ s: "ok", result: identity("bob").address });
    expect(malformed.status).toBe(422);
    expect(missing.status).toBe(404);
    expect(stack.localnet.stats.methods.getMultipleAccounts).toBe(1);
  });
});

describe("response cache (RESOLVE_CACHE_TTL_MS)", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH), { RESOLVE_CACHE_TTL_MS: "2000" });
  });
  afterAll(() => stack.close());

  it("serves repeats from memory and says so in Cache-Control", async () => {
    stack.localnet.resetStats();
    const first = await stack.get("/resolve/plain.sns");
    const second = await stack.get("/resolve/plain.sns");
    expect(second.text).toBe(first.text);
    expect(stack.localnet.stats.httpRequests).toBe(1);
    expect(second.headers.get("cache-control")).toBe("public, max-age=2");
  });

  it("caches answers about chain state, never RPC faults, and never marks errors cacheable", async () => {
    for (const [name, status] of [
      ["missing", 404],
      ["invalid-roa", 422],
    ] as const) {
      stack.localnet.resetStats();
      expect((await stack.get(`/resolve/${name}.sns`)).status).toBe(status);
      const again = await stack.get(`/resolve/${name}.sns`);
      expect(again.status).toBe(status);
      expect(again.headers.get("cache-control")).toBe("no-store");
      expect(stack.localnet.stats.httpRequests).toBe(1);
    }

    stack.localnet.setFault({ kind: "http-status", status: 503, times: 1 });
    expect((await stack.get("/resolve/v1-sol.sns")).status).toBe(502);
    expect((await stack.get("/resolve/v1-sol.sns")).body).toEqual({ s: "ok", result: identity("dave").address });
  });

  it("keeps answers apart per RPC endpoint and never marks override answers cacheable", async () => {
    const answer = await stack.get("/resolve/plain.sns?rpc=https://127.0.0.1");
    expect(answer.status).toBe(400);
    expect(answer.headers.get("cache-control")).toBe("no-store");
  });
});

// Background work that outlives its request is Node-only.
describeOnNode("response cache refreshed ahead of expiry", () => {
  let stack: Stack;
  const domain = deriveDomainKey("bonfida");
  const sleepUntil = (at: number) => new Promise((done) => setTimeout(done, Math.max(0, at - Date.now())));
  beforeAll(async () => {
    stack = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH), { RESOLVE_CACHE_TTL_MS: "2000" });
  });
  afterAll(() => stack.close());

  it("answers a hit late in its life from the cache and resolves the name again in the background", async () => {
    expect((await stack.get("/resolve/bonfida.sns")).body).toEqual({ s: "ok", result: identity("carol").address });
    const cachedAt = Date.now();
    transferDomainNft(stack.localnet.ledger, {
      domainKey: domain,
      from: identity("carol").address,
      to: identity("dave").address,
    });
    try {
      stack.localnet.resetStats();
      await sleepUntil(cachedAt + 1600);
      // Past 3/4 of the TTL: still the cached answer, which is younger than the TTL.
      expect((await stack.get("/resolve/bonfida.sns")).body).toEqual({ s: "ok", result: identity("carol").address });
      // Past the first answer's TTL: the refreshed answer, without a resolution in front of the request.
      await sleepUntil(cachedAt + 2200);
      const refreshRequests = stack.localnet.stats.httpRequests;
      expect(refreshRequests).toBeGreaterThan(0);
      expect((await stack.get("/resolve/bonfida.sns")).body).toEqual({ s: "ok", result: identity("dave").address });
      expect(stack.localnet.stats.httpRequests).toBe(refreshRequests);
      expect((await stack.get("/metrics")).text).toContain('sns_gateway_resolve_cache_total{result="refresh"} 1');
    } finally {
      transferDomainNft(stack.localnet.ledger, {
        domainKey: domain,
        from: identity("dave").address,
        to: identity("carol").address,
      });
    }
  });
});

describe("tokenized domains seen before resolve in one round trip", () => {
  let stack: Stack;
  const domain = deriveDomainKey("bonfida");
  const giveNft = (from: string, to: string) =>
    transferDomainNft(stack.localnet.ledger, {
      domainKey: domain,
      from: identity(from).address,
      to: identity(to).address,
    });

  beforeAll(async () => {
    stack = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH));
  });
  afterAll(() => stack.close());

  it("asks for the holder alongside the accounts once the domain is known to be tokenized", async () => {
    expect((await stack.get("/resolve/bonfida.sns")).body).toEqual({ s: "ok", result: identity("carol").address });
    stack.localnet.resetStats();
    expect((await stack.get("/resolve/bonfida.sns")).body).toEqual({ s: "ok", result: identity("carol").address });
    expect(stack.localnet.stats.httpRequests).toBe(1);
    expect(stack.localnet.stats.methods).toEqual({ getMultipleAccounts: 1, getTokenLargestAccounts: 1 });
  });

  it("still follows the NFT when it changes hands", async () => {
    giveNft("carol", "dave");
    expect((await stack.get("/resolve/bonfida.sns")).body).toEqual({ s: "ok", result: identity("dave").address });
    stack.localnet.resetStats();
    expect((await stack.get("/resolve/bonfida.sns")).body).toEqual({ s: "ok", result: identity("dave").address });
    expect(stack.localnet.stats.httpRequests).toBe(1);
    giveNft("dave", "carol");
  });

  it("drops the guess once the domain is redeemed", async () => {
    const nftRecordKey = deriveNftRecordKey(domain);
    const ledger = stack.localnet.ledger;
    const active = ledger.getAccount(nftRecordKey)!;
    const inactive = active.data.slice();
    inactive[0] = 3;
    ledger.setAccount(nftRecordKey, { owner: active.owner, data: inactive });
    try {
      // Falls through to bonfida's V2 SOL record.
      expect((await stack.get("/resolve/bonfida.sns")).body).toEqual({ s: "ok", result: identity("erin").address });
      stack.localnet.resetStats();
      expect((await stack.get("/resolve/bonfida.sns")).body).toEqual({ s: "ok", result: identity("erin").address });
      expect(stack.localnet.stats.methods).toEqual({ getMultipleAccounts: 1 });
    } finally {
      ledger.setAccount(nftRecordKey, { owner: active.owner, data: active.data });
    }
  });
});

describe("NFT_HOLDER_TTL_MS: a tokenized domain's holder reused for a bounded time", () => {
  const TTL_MS = 400;
  let stack: Stack;
  const domain = deriveDomainKey("bonfida");
  const moveNft = (from: string, to: string) =>
    transferDomainNft(stack.localnet.ledger, {
      domainKey: domain,
      from: identity(from).address,
      to: identity(to).address,
    });
  const resolveBonfida = async () => ((await stack.get("/resolve/bonfida.sns")).body as { result: string }).result;

  beforeAll(async () => {
    stack = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH), { NFT_HOLDER_TTL_MS: String(TTL_MS) });
  });
  afterAll(() => stack.close());

  it("within the window, resolves with the account fetch alone", async () => {
    expect(await resolveBonfida()).toBe(identity("carol").address);
    stack.localnet.resetStats();
    expect(await resolveBonfida()).toBe(identity("carol").address);
    expect(stack.localnet.stats.methods).toEqual({ getMultipleAccounts: 1 });
  });

  it("follows a transfer once the window has passed, never later", async () => {
    expect(await resolveBonfida()).toBe(identity("carol").address);
    moveNft("carol", "dave");
    await new Promise((resolve) => setTimeout(resolve, TTL_MS + 50));
    expect(await resolveBonfida()).toBe(identity("dave").address);
    moveNft("dave", "carol");
    await new Promise((resolve) => setTimeout(resolve, TTL_MS + 50));
    expect(await resolveBonfida()).toBe(identity("carol").address);
  });

  it("sees an unwrapped domain at once, whatever the window", async () => {
    expect(await resolveBonfida()).toBe(identity("carol").address);
    const nftRecordKey = deriveNftRecordKey(domain);
    const ledger = stack.localnet.ledger;
    const active = ledger.getAccount(nftRecordKey)!;
    const inactive = active.data.slice();
    inactive[0] = 3;
    ledger.setAccount(nftRecordKey, { owner: active.owner, data: inactive });
    try {
      expect(await resolveBonfida()).toBe(identity("erin").address);
    } finally {
      ledger.setAccount(nftRecordKey, { owner: active.owner, data: active.data });
    }
    // Re-wrapped: the holder is looked up again, not taken from before the unwrap.
    stack.localnet.resetStats();
    expect(await resolveBonfida()).toBe(identity("carol").address);
    expect(stack.localnet.stats.methods).toMatchObject({ getTokenLargestAccounts: 1 });
  });
});

// Pacing is Node-only (Workers get no shared loader whose replies could be paced).
describeOnNode("RPC_SETTLE_SLICE: a batch reply settled a slice at a time", () => {
  const names = [
    "bonfida",
    "dex.bonfida",
    "redeemed",
    "v2-sol",
    "pay.v2-sol",
    "stale-v2",
    "v1-sol",
    "bad-v1-sig",
    "plain",
    "profile",
    "vault",
    "burned-nft",
    "unminted",
    "invalid-roa",
    "wrong-validation",
    "malformed-sol",
    "nope",
  ];
  const paths = names.flatMap((name) => [`/resolve/${name}.sns`, `/resolve/${name}.sol`, `/safe-resolve/${name}.sns`]);
  let paced: Stack;
  let unpaced: Stack;
  beforeAll(async () => {
    const ledger = await loadFixtureFile(DEMO_FIXTURE_PATH);
    // One read per slice: every reply of more than one read is spread over several turns of the event loop.
    [paced, unpaced] = await Promise.all([
      startStack(ledger, { RPC_SETTLE_SLICE: "1", BATCH_WINDOW_MS: "50" }),
      startStack(ledger, { RPC_SETTLE_SLICE: "0", BATCH_WINDOW_MS: "50" }),
    ]);
    paced.localnet.setLatency(20);
    unpaced.localnet.setLatency(20);
  });
  afterAll(() => Promise.all([paced?.close(), unpaced?.close()]));

  const all = (stack: Stack) => Promise.all(paths.map((path) => stack.get(path)));

  const pacedReplies = async (stack: Stack) =>
    sampleValue((await stack.get("/metrics")).text, "sns_gateway_rpc_paced_replies_total");

  it("answers every request of a burst as settling the reply at once does", async () => {
    await Promise.all(paths.map(() => paced.get("/health")));
    await all(paced);
    // Pacing looks at the event loop's last 100 ms window; this one is mostly idle, so replies are paced.
    await new Promise((resolve) => setTimeout(resolve, 150));
    for (let round = 0; round < 2; round++) {
      const [got, expected] = await Promise.all([all(paced), all(unpaced)]);
      expect(got.map((a) => [a.status, a.text])).toEqual(expected.map((a) => [a.status, a.text]));
    }
    expect(await pacedReplies(paced)).toBeGreaterThan(0);
    expect(await pacedReplies(unpaced)).toBe(0);
  });
});

describeOnNode("RPC_SETTLE_SLICE: a far RPC node's replies paced while the loop is busy", () => {
  const paths = ["bonfida", "dex.bonfida", "v2-sol", "stale-v2", "v1-sol", "plain", "profile", "nope"].flatMap(
    (name) => [`/resolve/${name}.sns`, `/resolve/${name}.sol`],
  );
  let far: Stack;
  beforeAll(async () => {
    // One read per slice, and a burst's reads in few replies: every reply of more than one read can be paced.
    far = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH), { RPC_SETTLE_SLICE: "1", BATCH_WINDOW_MS: "50" });
    far.localnet.setLatency(20);
  });
  afterAll(() => far?.close());

  /** Keeps this process's event loop over 90% busy (2 ms of work a turn) until the returned function is called. */
  function keepLoopBusy(): () => void {
    let busy = true;
    const work = () => {
      if (!busy) return;
      const until = performance.now() + 2;
      while (performance.now() < until);
      setImmediate(work);
    };
    work();
    return () => {
      busy = false;
    };
  }

  const pacedReplies = async (stack: Stack) =>
    sampleValue((await stack.get("/metrics")).text, "sns_gateway_rpc_paced_replies_total");

  /** Paced replies of a second burst, the loop kept busy from before the first (which shows the node's distance). */
  async function pacedWhileBusy(stack: Stack): Promise<number> {
    const idle = keepLoopBusy();
    try {
      await new Promise((resolve) => setTimeout(resolve, 150));
      await Promise.all(paths.map((path) => stack.get(path)));
      await new Promise((resolve) => setTimeout(resolve, 150));
      const before = await pacedReplies(stack);
      const answers = await Promise.all(paths.map((path) => stack.get(path)));
      expect(answers.map((answer) => [answer.status, answer.text]).filter(([status]) => Number(status) >= 500)).toEqual(
        [],
      );
      return (await pacedReplies(stack)) - before;
    } finally {
      idle();
    }
  }

  it("paces replies that took a round trip of 10 ms or more", async () => {
    expect(await pacedWhileBusy(far)).toBeGreaterThan(0);
  });

  // A near node's replies on a busy loop, settled at once: test/platform/node/settle-pacing.test.ts (a round
  // trip through this process's own busy loop is too close to the threshold to tell here).
});
