import { afterAll, beforeAll, expect, it } from "vitest";
import { buildLedger, createRng, generateStates } from "../../testkit/chain-gen.js";
import type { BranchLabel } from "../../testkit/chain-gen.js";
import { type Answer, type Stack, startStack, describeOnNode } from "../../testkit/stack.js";

/**
 * What one bulk request of 1,000 names costs `RPC_URL`, in JSON-RPC calls
 * the localnet received (each call of a batch counts), per kind of name,
 * cold (nothing known) and warm (the same names again: holders' token
 * accounts known), the resolve cache off as by default; and what the
 * per-client limit (RPC_RATE_LIMIT, default) makes of a client sending
 * bulk requests of tokenized names. docs/routes.md, Bulk resolution, states these
 * bounds; docs/performance.md, Bulk resolution, the counts measured.
 */
const N = 1000;
const KINDS: Record<string, { labels: BranchLabel[]; subdomains: number; tld: string }> = {
  plain: { labels: ["owner/on-curve"], subdomains: 0, tld: ".sns" },
  ".sol": { labels: ["owner/on-curve"], subdomains: 0, tld: ".sol" },
  subdomain: { labels: ["owner/on-curve"], subdomains: 1, tld: ".sns" },
  "V2 SOL record": { labels: ["v2/valid"], subdomains: 0, tld: ".sns" },
  "V1 SOL record": { labels: ["v1/valid"], subdomains: 0, tld: ".sns" },
  tokenized: { labels: ["nft/active"], subdomains: 0, tld: ".sns" },
};
/** docs/routes.md's statement: calls per 1,000 names of each kind, cold and warm, at most. */
const STATED: Record<string, readonly [number, number]> = {
  plain: [45, 45],
  ".sol": [45, 45],
  subdomain: [45, 45],
  "V2 SOL record": [45, 45],
  "V1 SOL record": [45, 45],
  tokenized: [1060, 1060],
};

const names: Record<string, string[]> = {};
const states = Object.entries(KINDS).flatMap(([kind, { labels, subdomains, tld }], i) => {
  const generated = generateStates(createRng(100 + i), N, {
    labels,
    namespace: `cost${i}`,
    subdomainShare: subdomains,
  });
  names[kind] = generated.map((state) => `${state.name}${tld}`);
  return generated;
});
const ledger = buildLedger(states);

const postNames = (stack: Stack, domains: readonly string[], headers: Record<string, string> = {}): Promise<Answer> =>
  stack.get("/resolve", { method: "POST", body: JSON.stringify({ domains }), headers });
const statusesOf = (answer: Answer): number[] =>
  (answer.body as { result: { status: number }[] }).result.map((item) => item.status);

describeOnNode("bulk requests of 1,000 names: JSON-RPC calls to RPC_URL", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(ledger, { RPC_RATE_LIMIT: "0" });
  }, 120_000);
  afterAll(() => stack?.close());

  it("per kind of name, cold and warm, within docs/routes.md's statement", async () => {
    const rows: string[] = [];
    for (const kind of Object.keys(KINDS)) {
      const measured: number[] = [];
      for (const pass of ["cold", "warm"]) {
        stack.localnet.resetStats();
        const answer = await postNames(stack, names[kind]!);
        expect([kind, pass, answer.status, statusesOf(answer).every((status) => status === 200)]).toEqual([
          kind,
          pass,
          200,
          true,
        ]);
        measured.push(stack.localnet.stats.calls);
      }
      rows.push(
        `${kind}: cold ${measured[0]} calls, warm ${measured[1]} (${JSON.stringify(stack.localnet.stats.methods)})`,
      );
      expect([kind, measured[0]! <= STATED[kind]![0], measured[1]! <= STATED[kind]![1]]).toEqual([kind, true, true]);
    }
    console.info(`bulk cost per 1,000 names:\n  ${rows.join("\n  ")}`);
  }, 120_000);

  it("reads each name's registry account as its header alone, in calls of their own; a GET reads it whole", async () => {
    const sliced = stack.localnet.watchCalls({
      method: "getMultipleAccounts",
      params: '"dataSlice":{"offset":0,"length":96}',
    });
    const any = stack.localnet.watchCalls({ method: "getMultipleAccounts" });
    const answer = await postNames(stack, names.plain!);
    expect([answer.status, statusesOf(answer).every((status) => status === 200)]).toEqual([200, true]);
    // 1,000 registry accounts, 100 keys a call; the other 3,000 keys of the names whole, in 30 calls.
    expect([sliced.count, any.count]).toEqual([N / 100, (4 * N) / 100]);
    const single = await stack.get(`/resolve/${names.plain![0]!}`);
    expect(single.body).toEqual({
      s: "ok",
      result: (answer.body as { result: { result: string }[] }).result[0]!.result,
    });
    expect([sliced.count, any.count]).toEqual([N / 100, (4 * N) / 100 + 1]);
  }, 60_000);

  // Last of this stack's tests: the gateway remembers the refusal, and reads registry accounts whole after it.
  it("answers every name when the node refuses the headers' calls: it reads those accounts whole", async () => {
    const expected = (await postNames(stack, names.plain!)).body;
    stack.localnet.setFault({
      kind: "jsonrpc-error",
      code: -32602,
      message: "dataSlice is not supported",
      params: '"dataSlice"',
    });
    try {
      const refused = stack.localnet.watchCalls({ method: "getMultipleAccounts", params: '"dataSlice"' });
      const answer = await postNames(stack, names.plain!);
      expect([answer.status, answer.body]).toEqual([200, expected]);
      expect(refused.count).toBe(N / 100);
      const again = await postNames(stack, names.plain!);
      expect([again.status, again.body, refused.count]).toEqual([200, expected, N / 100]);
    } finally {
      stack.localnet.setFault(null);
    }
  }, 60_000);
});

describeOnNode("RPC_RATE_LIMIT (default): a client sending bulk requests of tokenized names", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(ledger, { CLIENT_IP_HEADER: "x-real-ip" });
  }, 120_000);
  afterAll(() => stack?.close());

  it("meets 429 with Retry-After once its calls for the minute are spent; its calls stay within the limit; another client is served", async () => {
    const heavy = { "x-real-ip": "198.51.100.50" };
    stack.localnet.resetStats();
    // One after another (requests at once share reads of the same names): each costs 1,050 calls.
    const answers: Answer[] = [];
    for (let i = 0; i < 24; i++) answers.push(await postNames(stack, names.tokenized!, heavy));
    const limit = Number(answers[0]!.headers.get("ratelimit-limit"));
    const calls = stack.localnet.stats.calls;
    const statuses = answers.map((answer) =>
      answer.status === 200 ? statusesOf(answer).filter((status) => status === 429).length : answer.status,
    );
    console.info(
      `24 bulk requests of 1,000 tokenized names from one client: ${calls} calls (limit ${limit}); items 429 (or the request's status): ${statuses.join(" ")}`,
    );
    expect(limit).toBe(20_000);
    // The 19th request spends the minute's last calls: its later names, and every later request, are refused.
    expect(statuses.slice(0, 18)).toEqual(Array.from({ length: 18 }, () => 0));
    expect(statuses.slice(20)).toEqual([429, 429, 429, 429]);
    // Paid as they are sent: none past the limit (a slot read of the gateway's own aside).
    expect(calls).toBeLessThanOrEqual(limit + 1);
    const later = await postNames(stack, names.tokenized!.slice(0, 10), heavy);
    expect([later.status, later.body]).toEqual([429, { s: "error", result: "Too many requests" }]);
    expect(Number(later.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(later.headers.get("ratelimit-remaining")).toBe("0");
    // Another client, meanwhile: its own allowance.
    const other = await postNames(stack, names.tokenized!.slice(0, 10), { "x-real-ip": "198.51.100.51" });
    expect([other.status, statusesOf(other).every((status) => status === 200)]).toEqual([200, true]);
  }, 300_000);
});
