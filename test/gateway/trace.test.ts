import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_FIXTURE_PATH, loadFixtureFile } from "../../src/localnet/index.js";
import { SOL_TLD_CUTOFF_SLOT } from "../../src/sns/constants.js";
import { getAsHost } from "../../testkit/host-request.js";
import { sampleValue } from "../../testkit/prometheus.js";
import { type Answer, type Stack, describeOnNode, startStack } from "../../testkit/stack.js";

// `?trace=1`: the answer says how it was decided (`trace` beside `s` and `result`), is never kept by a
// cache, and costs no RPC call of its own; without it (or with any other value) nothing changes.

interface Trace {
  readonly request: {
    readonly validation: string;
    readonly endpoints?: { readonly list: string; readonly hosts: readonly string[] };
    readonly cache: string;
    readonly ageSeconds?: number;
  };
  readonly names?: readonly { readonly name: string; readonly cache: string; readonly ageSeconds?: number }[];
  readonly reads: readonly {
    readonly key: string;
    readonly what?: string;
    readonly found: boolean;
    readonly owner?: string;
    readonly dataLength?: number;
    readonly head?: number;
    readonly slot?: number;
  }[];
  readonly decision: readonly { readonly name: string; readonly step: string; readonly outcome: string }[];
  readonly rpc: {
    readonly posts: readonly {
      readonly calls: Record<string, number>;
      readonly keys: number;
      readonly ms?: number;
      readonly attempts: readonly { readonly endpoint: string; readonly ms: number; readonly outcome: string }[];
    }[];
    readonly budget: { readonly calls: number; readonly bytes: number; readonly ms: number };
  };
  readonly notes?: readonly string[];
  readonly omitted?: Record<string, unknown>;
}

const traceOf = (answer: Answer): Trace => (answer.body as { trace: Trace }).trace;
const stepsOf = (trace: Trace) => trace.decision.map(({ step, outcome }) => `${step}: ${outcome}`);
const NAME_SERVICE = "namesLPneVptA9Z5rqUDD9tMTWEJwofgaYwp8cawRkX";
/** Everything but the request id, the date and the client's window (its count and the seconds to its reset), each request's own. */
const sameAnswer = (a: Answer, b: Answer) => {
  const own = ["x-request-id", "date", "ratelimit-remaining", "ratelimit-reset"];
  const headers = (answer: Answer) => [...answer.headers].filter(([name]) => !own.includes(name));
  expect(b.status).toBe(a.status);
  expect(b.text).toBe(a.text);
  expect(headers(b)).toEqual(headers(a));
};

describe("?trace=1 without the resolve cache", () => {
  let stack: Stack;
  let host: string;
  beforeAll(async () => {
    stack = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH), {
      RESOLVE_CACHE_TTL_MS: "0",
      ALLOW_PRIVATE_RPC_OVERRIDE: "true",
    });
    host = new URL(stack.localnet.url).host;
  });
  afterAll(() => stack?.close());

  it("a tokenized name: its reads, the steps in order (the NFT holder chosen), its posts and budget; no-store", async () => {
    stack.localnet.ledger.slot = 300_100_000;
    const plain = await stack.get("/resolve/bonfida.sns");
    const answer = await stack.get("/resolve/bonfida.sns?trace=1");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    const { s, result } = answer.body as { s: string; result: string };
    expect({ s, result }).toEqual(plain.body);
    const trace = traceOf(answer);
    expect(trace.request).toEqual({
      validation: "accepted",
      endpoints: { list: "configured", hosts: [host] },
      cache: "miss",
    });
    const registry = trace.reads.find((read) => read.what === "domain registry")!;
    expect(registry).toMatchObject({ found: true, owner: NAME_SERVICE, slot: 300_100_000 });
    expect(registry.dataLength).toBeGreaterThanOrEqual(96);
    expect(trace.reads.find((read) => read.what === "NFT record")).toMatchObject({ found: true });
    expect(stepsOf(trace)).toEqual([
      expect.stringMatching(new RegExp(`^tokenized: active NFT record; holder ${result} .*: chosen$`)),
    ]);
    // The untraced request before it left a hint: the holder's reads ride in the first post.
    expect(trace.rpc.posts.length).toBeGreaterThanOrEqual(1);
    expect(trace.rpc.posts[0]!.calls.getMultipleAccounts).toBe(1);
    expect(trace.rpc.posts[0]!.keys).toBeGreaterThanOrEqual(4);
    for (const post of trace.rpc.posts)
      expect(post.attempts).toEqual([expect.objectContaining({ endpoint: host, outcome: "ok" })]);
    expect(trace.rpc.budget.calls).toBeGreaterThanOrEqual(trace.rpc.posts.length);
    expect(trace.rpc.budget.bytes).toBeGreaterThan(0);
  });

  it("a V2 SOL record name: the record verifies and is chosen after the NFT record is found absent", async () => {
    const answer = await stack.get("/resolve/v2-sol.sns?trace=1");
    expect(answer.status).toBe(200);
    const trace = traceOf(answer);
    expect(stepsOf(trace)).toEqual([
      "tokenized: no active NFT record (absent)",
      expect.stringMatching(/^V2 SOL record: signature verifies .*: chosen$/),
    ]);
    expect(trace.reads.find((read) => read.what === "V2 SOL record")).toMatchObject({ found: true });
  });

  it("each decline is said in order: a V1 record absent, then the registry owner chosen", async () => {
    const trace = traceOf(await stack.get("/resolve/plain.sns?trace=1"));
    expect(stepsOf(trace)).toEqual([
      "tokenized: no active NFT record (absent)",
      "V2 SOL record: absent",
      "V1 SOL record: absent",
      expect.stringMatching(/^registry owner: \w+: chosen$/),
    ]);
  });

  it("a rejected input says which rule failed, and read nothing", async () => {
    const answer = await stack.get("/resolve/a.b.c.sns?trace=1");
    expect(answer.status).toBe(400);
    expect((answer.body as { result: string }).result).toBe("Invalid input");
    const trace = traceOf(answer);
    expect(trace.request.validation).toBe("refused: 3 labels before the suffix (1 or 2 allowed)");
    expect(trace.reads).toEqual([]);
    expect(trace.rpc.posts).toEqual([]);
    expect(traceOf(await stack.get("/resolve/a.com?trace=1")).request.validation).toMatch(
      /^refused: .*unsupported TLD/,
    );
  });

  it("a missing domain: the registry read absent", async () => {
    const answer = await stack.get("/resolve/nobody.sns?trace=1");
    expect(answer.status).toBe(404);
    expect(stepsOf(traceOf(answer))).toEqual(["domain registry: absent"]);
  });

  it("without trace=1 nothing changes, byte for byte; trace with another value is ignored", async () => {
    stack.localnet.ledger.slot = 300_100_500;
    const plain = await stack.get("/resolve/plain.sns");
    for (const query of ["?trace=0", "?trace=true", "?trace=", "?trace=10", "?trace=0&trace=1"]) {
      sameAnswer(plain, await stack.get(`/resolve/plain.sns${query}`));
    }
    sameAnswer(await stack.get("/resolve/a.b.c.sns"), await stack.get("/resolve/a.b.c.sns?trace=yes"));
  });

  it("answers outside the envelope stay as they are (the OpenAPI document)", async () => {
    const traced = await stack.get("/openapi.json?trace=1");
    expect(traced.status).toBe(200);
    expect((traced.body as { trace?: unknown }).trace).toBeUndefined();
    expect(traced.text).toBe((await stack.get("/openapi.json")).text);
  });

  it("adds no RPC call: a traced resolution sends what an untraced one sends", async () => {
    stack.localnet.resetStats();
    await stack.get("/resolve/bonfida.sns");
    const untraced = stack.localnet.stats;
    stack.localnet.resetStats();
    await stack.get("/resolve/bonfida.sns?trace=1");
    expect(stack.localnet.stats.methods).toEqual(untraced.methods);
    expect(stack.localnet.stats.httpRequests).toBe(untraced.httpRequests);
  });

  it("other routes that read the chain carry their reads and posts (records)", async () => {
    const answer = await stack.get("/records-v2/bonfida.sns?records=SOL&trace=1");
    const trace = traceOf(answer);
    expect(trace.request.validation).toBe("accepted");
    expect(trace.reads.length).toBeGreaterThan(0);
    expect(trace.rpc.posts.length).toBeGreaterThan(0);
    const refused = traceOf(await stack.get("/records-v2/bonfida.sns?records=NOPE&trace=1"));
    expect(refused.request.validation).toMatch(/^refused: /);
  });

  it("an override's path, query and credentials never appear: only its host", async () => {
    const secret = "SECRETKEY1234";
    const override = `${stack.localnet.url}/v1/${secret}?api-key=${secret}&x=${secret}`;
    const answer = await stack.get(`/resolve/bonfida.sns?trace=1&rpc=${encodeURIComponent(override)}`);
    expect(answer.status).toBe(200);
    const trace = traceOf(answer);
    expect(trace.request.endpoints).toEqual({ list: "override", hosts: [host] });
    expect(answer.text).not.toContain(secret);
    expect(answer.text).not.toContain("api-key");
    expect(answer.text).not.toContain("/v1/");
    const withUser = `http://user:${secret}@${host}/${secret}?k=${secret}`;
    const refused = await stack.get(`/resolve/bonfida.sns?trace=1&rpc=${encodeURIComponent(withUser)}`);
    expect(refused.status).toBe(400);
    expect(traceOf(refused).request.validation).toBe(
      "refused: rpc override refused by policy: it carries credentials before its host",
    );
    expect(refused.text).not.toContain(secret);
    expect(refused.text).not.toContain("user");
  });

  it("bulk: one trace for the request, bounded for 1,000 names (what is left out is counted); items unchanged", async () => {
    const domains = Array.from({ length: 1000 }, (_, i) =>
      i % 3 === 0 ? `n${i}.sns` : i % 3 === 1 ? "bonfida.sns" : `a.b.c${i}.sns`,
    );
    const post = (path: string) => stack.get(path, { method: "POST", body: JSON.stringify({ domains }) });
    const plain = await post("/resolve");
    const traced = await post("/resolve?trace=1");
    expect(traced.status).toBe(200);
    expect((traced.body as { result: unknown }).result).toEqual((plain.body as { result: unknown }).result);
    expect(traced.text.length).toBeLessThan(256 * 1024);
    const trace = traceOf(traced);
    expect(trace.decision.length).toBeLessThanOrEqual(200);
    expect(trace.reads.length).toBeLessThanOrEqual(200);
    expect(trace.omitted).toMatchObject({ reads: expect.any(Number), decision: expect.any(Number) });
    expect((trace.omitted as { reads: number }).reads).toBeGreaterThan(0);
    expect(trace.decision).toContainEqual({
      name: "a.b.c2.sns",
      step: "validation",
      outcome: "refused: 3 labels before the suffix (1 or 2 allowed)",
    });
    expect(traced.headers.get("cache-control")).toBe("no-store");
  });

  it("bulk of 100 names or more: a registry account read as its header says so (head 96); a GET's read it whole", async () => {
    const domains = ["bonfida.sns", ...Array.from({ length: 99 }, (_, i) => `headless${i}.sns`)];
    const traced = await stack.get("/resolve?trace=1", { method: "POST", body: JSON.stringify({ domains }) });
    expect(traced.status).toBe(200);
    const registries = traceOf(traced).reads.filter((read) => read.what === "domain registry" && read.found);
    expect(registries).toEqual([expect.objectContaining({ dataLength: 96, head: 96 })]);
    const single = traceOf(await stack.get("/resolve/bonfida.sns?trace=1"));
    const whole = single.reads.find((read) => read.what === "domain registry");
    expect(whole).toMatchObject({ found: true });
    expect(whole!.dataLength).toBeGreaterThan(96);
    expect(whole).not.toHaveProperty("head");
  });

  it("a .sol name that waited on the cutoff slot read says so: getSlot, at the endpoint's host, shared", async () => {
    // One slot before the cutoff: no finalized slot may be reused, so every .sol request reads one first.
    stack.localnet.ledger.slot = SOL_TLD_CUTOFF_SLOT - 1;
    const trace = traceOf(await stack.get("/resolve/dex.bonfida.sol?trace=1"));
    const host = new URL(stack.localnet.url).host;
    expect(trace.notes).toContainEqual(expect.stringMatching(/^\.sol cutoff: .*getSlot at .*shared/));
    expect(trace.notes?.find((note) => note.startsWith(".sol cutoff"))).toContain(host);
  });

  it("bulk: a long name is cut to 256 characters wherever the trace says it, so the trace stays small", async () => {
    const long = `${"x".repeat(250_000)}.sol`;
    const post = (path: string) => stack.get(path, { method: "POST", body: JSON.stringify({ domains: [long] }) });
    const plain = await post("/resolve");
    const traced = await post("/resolve?trace=1");
    expect(traced.status).toBe(plain.status);
    expect((traced.body as { result: unknown }).result).toEqual((plain.body as { result: unknown }).result);
    expect(traced.text.length).toBeLessThan(plain.text.length + 16 * 1024);
    const trace = traceOf(traced);
    const said = [...trace.decision.map((step) => step.name), ...(trace.names ?? []).map((entry) => entry.name)];
    expect(said.length).toBeGreaterThan(0);
    for (const name of said) expect(name).toBe(`${"x".repeat(256)}…`);
  });
});

describe("?trace=1 with the resolve cache on", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH), { RESOLVE_CACHE_TTL_MS: "60000" });
  });
  afterAll(() => stack?.close());

  it("a traced resolution is not kept: the next untraced request is still a miss; a traced request after a hit says hit and its age", async () => {
    stack.localnet.ledger.slot = 300_200_000;
    const traced = await stack.get("/resolve/dex.bonfida.sns?trace=1");
    expect(traced.status).toBe(200);
    expect(traceOf(traced).request.cache).toBe("miss");
    stack.localnet.ledger.slot = 300_200_100;
    const first = await stack.get("/resolve/dex.bonfida.sns");
    // Read now, not served from anything the traced request kept.
    expect(first.headers.get("x-context-slot")).toBe("300200100");
    expect(first.headers.get("age")).toBeNull();
    const hit = await stack.get("/resolve/dex.bonfida.sns?trace=1");
    expect(hit.headers.get("cache-control")).toBe("no-store");
    expect(hit.headers.get("x-context-slot")).toBe("300200100");
    const trace = traceOf(hit);
    expect(trace.request.cache).toBe("hit");
    expect(trace.request.ageSeconds).toBeGreaterThanOrEqual(0);
    expect(trace.names).toEqual([
      { name: "dex.bonfida", cache: "hit", ageSeconds: expect.any(Number), slot: 300_200_100 },
    ]);
    expect(trace.rpc.posts).toEqual([]);
  });
});

describe("?trace=1 on the retired hosts' API (LEGACY_HOSTS)", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH), { LEGACY_HOSTS: "sdk-proxy.example" });
  });
  afterAll(() => stack?.close());

  it("takes the same parameter: the same answer with its trace; without it, unchanged", async () => {
    const plain = await getAsHost(stack.gateway.url, "/resolve/bonfida", "sdk-proxy.example");
    const traced = await getAsHost(stack.gateway.url, "/resolve/bonfida?trace=1", "sdk-proxy.example");
    expect(traced.status).toBe(plain.status);
    const { s, result } = traced.body as { s: string; result: string };
    expect({ s, result }).toEqual(plain.body);
    expect(stepsOf(traceOf(traced))[0]).toMatch(/^tokenized: active NFT record/);
  });
});

// Concurrent requests share resolutions on Node (Workers share none across requests).
describeOnNode("?trace=1 beside concurrent requests for the same name", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH), { RESOLVE_CACHE_TTL_MS: "0" });
  });
  afterAll(() => stack?.close());
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it("a traced request joining another's resolution says coalesced and whose reads they were", async () => {
    stack.localnet.setLatency(300);
    try {
      const untraced = stack.get("/resolve/plain.sns");
      await sleep(100);
      const traced = await stack.get("/resolve/plain.sns?trace=1");
      expect((await untraced).status).toBe(200);
      const trace = traceOf(traced);
      expect(trace.request.cache).toBe("coalesced");
      expect(trace.names).toEqual([{ name: "plain", cache: "coalesced" }]);
      expect(trace.notes).toEqual([expect.stringMatching(/^coalesced: .*another request started/)]);
      expect(trace.decision).toEqual([]);
      expect(trace.rpc.budget.calls).toBe(0);
    } finally {
      stack.localnet.setLatency(0);
    }
  });

  it("a traced resolution is joined by no one: a request arriving meanwhile resolves on its own, sharing its reads", async () => {
    const answers = async (cache: string) =>
      sampleValue((await stack.get("/metrics")).text, "sns_gateway_answers_total", { cache });
    const [missBefore, coalescedBefore] = [await answers("miss"), await answers("coalesced")];
    stack.localnet.setLatency(300);
    try {
      stack.localnet.resetStats();
      const traced = stack.get("/resolve/v2-sol.sns?trace=1");
      await sleep(100);
      const untraced = await stack.get("/resolve/v2-sol.sns");
      expect(untraced.status).toBe(200);
      const trace = traceOf(await traced);
      expect(trace.request.cache).toBe("miss");
      // The untraced request's resolution is its own, but its reads joined the traced one's, already sent.
      expect(await answers("miss")).toBe(missBefore + 2);
      expect(await answers("coalesced")).toBe(coalescedBefore);
      expect(stack.localnet.stats.methods.getMultipleAccounts).toBe(1);
      expect(trace.reads.every((read) => (read as { shared?: boolean }).shared === true)).toBe(true);
    } finally {
      stack.localnet.setLatency(0);
    }
  });
});

// One post in flight at a time: reads queued meanwhile go out together, whichever requests asked for them.
describeOnNode("?trace=1 beside other requests' reads in the same post", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH), {
      RESOLVE_CACHE_TTL_MS: "0",
      RPC_MAX_IN_FLIGHT: "1",
      BATCH_WINDOW_MS: "1000",
    });
  });
  afterAll(() => stack?.close());
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it("a post that also carried another request's calls says shared, with this request's own calls", async () => {
    stack.localnet.setLatency(300);
    try {
      const untraced = stack.get("/resolve/bonfida.sns");
      await sleep(100);
      const traced = await stack.get("/resolve/plain.sns?trace=1");
      expect((await untraced).status).toBe(200);
      const posts = traceOf(traced).rpc.posts as readonly {
        shared?: boolean;
        ownCalls?: number;
        calls: Record<string, number>;
      }[];
      const shared = posts.filter((post) => post.shared === true);
      expect(shared.length).toBeGreaterThan(0);
      for (const post of shared) {
        const calls = Object.values(post.calls).reduce((a, b) => a + b, 0);
        expect(post.ownCalls).toBeGreaterThanOrEqual(1);
        expect(post.ownCalls).toBeLessThanOrEqual(calls);
      }
      for (const post of posts) if (post.shared !== true) expect(post.ownCalls).toBeUndefined();
    } finally {
      stack.localnet.setLatency(0);
    }
  });

  it("a key the request joins twice (two of its names read it while another request's read is sent) is listed once", async () => {
    // The .sol cutoff known not reached first, so plain.sol goes on at once as plain.sns does.
    expect((await stack.get("/resolve/plain.sol")).status).toBe(200);
    stack.localnet.setLatency(300);
    try {
      // A traced resolution is joined by no one: each of these reads plain's accounts itself.
      const other = stack.get("/resolve/plain.sns?trace=1");
      await sleep(100);
      const traced = await stack.get("/resolve?trace=1", {
        method: "POST",
        body: JSON.stringify({ domains: ["plain.sns", "plain.sol"] }),
      });
      expect((await other).status).toBe(200);
      expect(traced.status).toBe(200);
      const keys = traceOf(traced).reads.map((read) => read.key);
      expect(keys.length).toBeGreaterThan(0);
      expect(new Set(keys).size).toBe(keys.length);
    } finally {
      stack.localnet.setLatency(0);
    }
  });
});
