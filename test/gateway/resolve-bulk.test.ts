import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_FIXTURE_PATH, type Fault, loadFixtureFile } from "../../src/localnet/index.js";
import { generateWorkingSetParts } from "../../bench/working-set.js";
import { buildLedger, createRng, freshSeed, generateStates } from "../../testkit/chain-gen.js";
import { mapLimit } from "../../testkit/differential.js";
import { type Answer, type Stack, onWorkerd, request, startStack, describeOnNode } from "../../testkit/stack.js";
import { captureLog } from "../../testkit/log-capture.js";
import { generateSrsStates } from "../../testkit/srs-gen.js";
import { sampleValue } from "../../testkit/prometheus.js";
import { loadConfig } from "../../src/config.js";
import { startLocalnet } from "../../src/localnet/index.js";
import { startGateway } from "../../src/platform/node/gateway.js";

/*
 * POST /resolve and /safe-resolve over real HTTP against the localnet, on
 * Node and under workerd: the request's validation, items equal to the GET
 * answers one by one (plain, through `rpc`, with the resolve cache on), RPC
 * faults confined to items, and the round trips and getMultipleAccounts
 * calls the RPC node counts.
 */

type RequestBody = NonNullable<RequestInit["body"]>;

const error = (result: string) => ({ s: "error", result });
const INVALID = error("Invalid input");
const TOO_LARGE = error("Request body too large");
const LIMIT = 256 * 1024;

const post = (stack: Stack, path: string, body: RequestBody | null, init: RequestInit = {}): Promise<Answer> =>
  stack.get(path, { method: "POST", body, ...init });
const postNames = (stack: Stack, path: string, domains: readonly string[]) =>
  post(stack, path, JSON.stringify({ domains }));

/** Whether `error` or one of its causes is a connection reset or broken pipe (undici wraps them in its own). */
function cutOff(error: unknown): boolean {
  for (let at = error; at instanceof Error; at = at.cause) {
    const code = (at as NodeJS.ErrnoException).code;
    if (code === "ECONNRESET" || code === "EPIPE" || code === "UND_ERR_SOCKET") return true;
  }
  return false;
}

/**
 * workerd answers a body it refuses unread and then may reset the
 * connection while the client is still sending that body: the client's
 * write fails with ECONNRESET before it reads the answer (the runtime's
 * choice, below the gateway; Node's listener lets the upload finish). On
 * workerd, an upload cut off that way is sent again, three times at most.
 */
async function uploadRefused(send: () => Promise<Answer>): Promise<Answer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      if (!onWorkerd || attempt === 3 || !cutOff(error)) throw error;
    }
  }
}

interface Item {
  readonly domain: string;
  readonly status: number;
  readonly s: string;
  readonly result: string;
  readonly slot?: number;
}
const itemsOf = (answer: Answer): Item[] => (answer.body as { result: Item[] }).result;

/**
 * What `GET /<route>/<domain>` answers, as an item (its `X-Context-Slot` as the item's `slot`): an empty
 * string is asked as a blank domain (a path has no empty segment).
 */
async function getItem(stack: Stack, route: string, domain: string, query = ""): Promise<Item> {
  const answer = await stack.get(`/${route}/${encodeURIComponent(domain === "" ? " " : domain)}${query}`);
  const body = answer.body as { s: string; result: string };
  const slot = answer.headers.get("x-context-slot");
  return {
    domain,
    status: answer.status,
    s: body.s,
    result: body.result,
    ...(slot !== null && { slot: Number(slot) }),
  };
}

let demo: Stack;
beforeAll(async () => {
  demo = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH), { ALLOW_PRIVATE_RPC_OVERRIDE: "true" });
});
afterAll(() => demo?.close());

describe("POST /resolve: the request", () => {
  const fine = JSON.stringify({ domains: ["plain.sns"] });

  it.each<[string, RequestBody | null, RequestInit?]>([
    ["a body that is not JSON", "plain.sns"],
    ["an empty body", ""],
    ["no body", null],
    ["JSON null", "null"],
    ["a JSON array", '["plain.sns"]'],
    ["an object without domains", '{"names":["plain.sns"]}'],
    ["domains not an array", '{"domains":"plain.sns"}'],
    ["no names", '{"domains":[]}'],
    ["a name that is not a string", '{"domains":["plain.sns",7]}'],
    ["a null name", '{"domains":[null]}'],
    ["1,001 names", JSON.stringify({ domains: Array.from({ length: 1001 }, (_, i) => `n${i}.sns`) })],
    ["bytes that are not UTF-8", new Uint8Array([0x7b, 0x22, 0x64, 0xff, 0x22, 0x7d])],
    ["JSON followed by more", `${fine} x`],
  ])("%s → 400 Invalid input", async (_, body, init) => {
    const answer = await post(demo, "/resolve", body, init);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(INVALID);
    expect(answer.headers.get("cache-control")).toBe("no-store");
  });

  it.each<[string, () => RequestBody, RequestInit?]>([
    ["a declared body over 256 KiB", () => "x".repeat(LIMIT + 1)],
    ["valid JSON over 256 KiB", () => JSON.stringify({ domains: ["plain.sns", "y".repeat(LIMIT)] })],
    [
      "a chunked body over 256 KiB (no Content-Length)",
      () =>
        new ReadableStream({
          start(controller) {
            for (let i = 0; i < 40; i++) controller.enqueue(new Uint8Array(16 * 1024).fill(0x20));
            controller.close();
          },
        }),
      { duplex: "half" } as RequestInit,
    ],
  ])("%s → 413 Request body too large, checked before anything else", async (_, body, init) => {
    const answer = await uploadRefused(() => post(demo, "/resolve?rpc=http%3A%2F%2F169.254.169.254", body(), init));
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual(TOO_LARGE);
    if (!onWorkerd) expect(answer.headers.get("connection")).toBe("close");
    expect(answer.headers.get("cache-control")).toBe("no-store");
  });

  it("takes a body of exactly 256 KiB", async () => {
    const head = '{"domains":["plain.sns"],"pad":"';
    const body = `${head}${"z".repeat(LIMIT - head.length - 2)}"}`;
    expect(new TextEncoder().encode(body).length).toBe(LIMIT);
    const answer = await post(demo, "/resolve", body);
    expect(answer.status).toBe(200);
    expect(itemsOf(answer)).toHaveLength(1);
  });

  it("checks `rpc` after the body, and refuses a bad one with 400 as the GET routes do", async () => {
    const refused = await post(demo, "/resolve?rpc=not%20a%20url", fine);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual(INVALID);
    const overLong = await post(demo, `/resolve?rpc=https://x.example/${"a".repeat(3000)}`, fine);
    expect(overLong.status).toBe(400);
    const viaLocalnet = await post(demo, `/resolve?rpc=${encodeURIComponent(demo.localnet.url)}`, fine);
    expect(viaLocalnet.status).toBe(200);
  });

  it.each<[string, Record<string, string>]>([
    ["no Content-Type", {}],
    ["application/json", { "content-type": "application/json" }],
    ["text/plain", { "content-type": "text/plain;charset=UTF-8" }],
    ["a form type", { "content-type": "application/x-www-form-urlencoded" }],
  ])("takes any Content-Type (%s); other members ignored; never cached", async (_, headers) => {
    const body = new TextEncoder().encode(JSON.stringify({ domains: ["plain.sns"], other: { deep: [1, 2] } }));
    const answer = await post(demo, "/resolve", body, { headers });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
    expect(answer.headers.get("access-control-allow-origin")).toBe("*");
    expect(itemsOf(answer)).toEqual([await getItem(demo, "resolve", "plain.sns")]);
  });

  it("answers 1,000 names", async () => {
    const answer = await postNames(
      demo,
      "/safe-resolve",
      Array.from({ length: 1000 }, (_, i) => `n${i}.sns`),
    );
    expect(answer.status).toBe(200);
    expect(itemsOf(answer)).toHaveLength(1000);
  });

  it("answers 12 requests at once, 4 at a time: those that wait are let in by those that leave", async () => {
    const names = Array.from({ length: 200 }, (_, i) => `n${i}.sns`);
    const answers = await Promise.all(Array.from({ length: 12 }, () => postNames(demo, "/resolve", names)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(12).fill(200));
    for (const answer of answers) expect(itemsOf(answer)).toHaveLength(200);
  });

  it("serves POST only on /resolve and /safe-resolve: other methods and paths stay 405", async () => {
    for (const path of ["/resolve", "/safe-resolve"]) {
      for (const method of ["GET", "PUT", "DELETE", "PATCH"]) {
        const answer = await demo.get(path, { method });
        expect(answer.status, `${method} ${path}`).toBe(405);
        expect(answer.headers.get("allow")).toBe("POST, OPTIONS");
        expect(answer.body).toEqual(error("Method not allowed"));
      }
    }
    for (const path of ["/resolve/plain.sns", "/safe-resolve/plain.sns", "/reverse-key/plain", "/types/record"]) {
      const answer = await post(demo, path, fine);
      expect(answer.status, path).toBe(405);
      expect(answer.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    }
    expect((await post(demo, "/resolve/", fine)).status).toBe(404);
    const preflight = await demo.get("/resolve", {
      method: "OPTIONS",
      headers: {
        origin: "https://wallet.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-methods")).toContain("POST");
    expect(preflight.headers.get("access-control-allow-headers")).toBe("content-type");
  });
});

describe("POST /resolve: items", () => {
  it("gives one item per input in input order, the input as sent, bad names not failing the others", async () => {
    const domains = [
      "bonfida.sns",
      " Plain.SNS ",
      "",
      " ",
      "a/b.sns",
      "a.b.bonfida.sns",
      "bonfida.com",
      "nobody.sns",
      "vault.sns",
    ];
    const answer = await postNames(demo, "/resolve", domains);
    expect(answer.status).toBe(200);
    const items = itemsOf(answer);
    expect(items.map((item) => item.domain)).toEqual(domains);
    for (const [i, domain] of domains.entries())
      expect(items[i], domain).toEqual(await getItem(demo, "resolve", domain));
    expect(items.map((item) => item.status)).toEqual([200, 200, 400, 400, 404, 400, 400, 404, 500]);
  });

  it("resolves a repeated name once", async () => {
    demo.localnet.resetStats();
    const answer = await postNames(demo, "/resolve", ["v1-sol.sns", "V1-SOL.sns", " v1-sol.sns", "v1-sol.sns"]);
    const items = itemsOf(answer);
    expect(new Set(items.map((item) => item.result)).size).toBe(1);
    expect(demo.localnet.stats.methods.getMultipleAccounts).toBe(1);
    expect(demo.localnet.stats.calls).toBe(1);
  });
});

/** 1,000 inputs over one ledger: every branch label of the generator as `.sns` and `.sol`, repeats, and names no GET could resolve. */
function mixedInputs(seed: number) {
  const states = generateStates(createRng(seed), 900);
  const names = states.map((state, i) => `${state.name}${i % 3 === 0 ? ".sol" : ".sns"}`);
  const odd = [
    "",
    " ",
    "\t",
    "a/b.sns",
    "bonfida",
    "x.b.c.sns",
    ".sns",
    "a..sns",
    "x.com",
    "x.sol.eth",
    "\u00e9t\u00e9.sns",
  ];
  const repeats = names.slice(0, 100 - odd.length).map((name, i) => (i % 2 === 0 ? ` ${name.toUpperCase()}` : name));
  return { ledger: buildLedger(states), inputs: [...names, ...odd, ...repeats] };
}

describe("POST /resolve: a 1,000-name mix of every resolution branch equals the GET answers one by one", () => {
  const seed = freshSeed();
  const { ledger, inputs } = mixedInputs(seed);
  console.info(`bulk mix: seed ${seed}`);
  let stack: Stack;
  let cached: Stack;
  beforeAll(async () => {
    // No override rate limit: the thousand GETs the bulk answer is compared with would exhaust it.
    stack = await startStack(ledger, { ALLOW_PRIVATE_RPC_OVERRIDE: "true", RPC_OVERRIDE_RATE_LIMIT: "0" });
    cached = await startStack(ledger, { RESOLVE_CACHE_TTL_MS: "60000" });
  });
  afterAll(async () => {
    await stack?.close();
    await cached?.close();
  });

  const expectSameAsGets = async (target: Stack, route: string, items: Item[], query = "") => {
    expect(inputs).toHaveLength(1000);
    expect(items).toHaveLength(inputs.length);
    const gets: Item[] = new Array(inputs.length);
    await mapLimit([...inputs.keys()], 16, async (i) => {
      gets[i] = await getItem(target, route, inputs[i]!, query);
    });
    const differing = items.flatMap((item, i) =>
      JSON.stringify(item) === JSON.stringify(gets[i]) ? [] : [{ bulk: item, get: gets[i] }],
    );
    expect(differing, `seed ${seed}`).toEqual([]);
    const statuses = new Set(items.map((item) => item.status));
    for (const status of [200, 400, 404, 422, 500]) expect(statuses, `seed ${seed}`).toContain(status);
  };

  it.each(["resolve", "safe-resolve"])("/%s", async (route) => {
    const answer = await postNames(stack, `/${route}`, inputs);
    expect(answer.status).toBe(200);
    await expectSameAsGets(stack, route, itemsOf(answer));
  });

  it("through `rpc`", async () => {
    const query = `?rpc=${encodeURIComponent(stack.localnet.url)}`;
    const answer = await post(stack, `/resolve${query}`, JSON.stringify({ domains: inputs }));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    await expectSameAsGets(stack, "resolve", itemsOf(answer), query);
  });

  it("with the resolve cache on (RESOLVE_CACHE_TTL_MS), before and after the GETs filled it", async () => {
    const first = await postNames(cached, "/resolve", inputs);
    await expectSameAsGets(cached, "resolve", itemsOf(first));
    cached.localnet.resetStats();
    const again = await postNames(cached, "/resolve", inputs);
    expect(itemsOf(again)).toEqual(itemsOf(first));
    expect(again.headers.get("cache-control")).toBe("no-store");
    // Every outcome but the RPC-side ones is cached: the repeat reads (almost) nothing.
    expect(cached.localnet.stats.calls).toBeLessThanOrEqual(1);
  });
});

describe("POST /resolve: RPC faults fail the items that needed the RPC (502), never the request", () => {
  let faulty: Stack;
  beforeAll(async () => {
    faulty = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH), { RPC_TIMEOUT_MS: "300" });
  });
  afterAll(() => faulty?.close());

  const domains = ["bonfida.sns", "v2-sol.sns", "plain.sol", "nobody.sns", "bonfida.com", "a.b.c.sns"];
  const RPC_UNAVAILABLE = { status: 502, s: "error", result: "RPC unavailable" };

  it.each<[string, Fault]>([
    ["a JSON-RPC error", { kind: "jsonrpc-error", code: -32005, message: "Node is behind" }],
    ["HTTP 503", { kind: "http-status", status: 503 }],
    ["a body that is not JSON", { kind: "garbage" }],
    ["no answer within RPC_TIMEOUT_MS", { kind: "hang" }],
    ["a result of the wrong shape", { kind: "malformed-result", method: "getMultipleAccounts" }],
  ])("%s", async (_, fault) => {
    faulty.localnet.setFault(fault);
    try {
      const answer = await postNames(faulty, "/resolve", domains);
      expect(answer.status).toBe(200);
      const items = itemsOf(answer);
      for (const item of items.slice(0, 4))
        expect(item, item.domain).toEqual({ domain: item.domain, ...RPC_UNAVAILABLE });
      expect(items[4]).toEqual({ domain: "bonfida.com", status: 400, s: "error", result: "Unsupported TLD" });
      expect(items[5]).toEqual({ domain: "a.b.c.sns", status: 400, s: "error", result: "Invalid input" });
    } finally {
      faulty.localnet.setFault(null);
    }
  });

  it("a fault of one method fails only the names that call it", async () => {
    faulty.localnet.setFault({
      kind: "jsonrpc-error",
      method: "getTokenLargestAccounts",
      code: -32603,
      message: "Internal error",
    });
    try {
      const items = itemsOf(await postNames(faulty, "/resolve", ["bonfida.sns", "v2-sol.sns", "plain.sns"]));
      expect(items[0]).toEqual({ domain: "bonfida.sns", ...RPC_UNAVAILABLE });
      expect(items[1]!.status).toBe(200);
      expect(items[2]!.status).toBe(200);
    } finally {
      faulty.localnet.setFault(null);
    }
  });
});

describe("POST /resolve: round trips and getMultipleAccounts calls, counted by the RPC node", () => {
  /**
   * Long enough that every request of one round leaves before any answer of
   * that round is back, even while the gateway, the localnet and the test
   * share one CPU: the localnet's count is then the causal depth.
   */
  const LATENCY_MS = 500;
  /** The mix settles thousands of accounts per reply (signature and curve checks): more CPU per round, a longer round trip. */
  const MIX_LATENCY_MS = 2500;
  const bound = (distinct: number) => Math.ceil((4 * distinct) / 100) + 1;
  const plain = generateStates(createRng(7), 1000, { labels: ["owner/on-curve"], namespace: "plainbulk" });
  const mix = generateWorkingSetParts(11, 1000);
  let plainStack: Stack;
  beforeAll(async () => {
    plainStack = await startStack(buildLedger(plain));
    plainStack.localnet.setLatency(LATENCY_MS);
  });
  afterAll(() => plainStack?.close());

  it.each([10, 100, 1000])("%i plain .sns names: 1 round trip, getMultipleAccounts within ⌈4n/100⌉ + 1", async (n) => {
    const domains = plain.slice(0, n).map((state) => `${state.name}.sns`);
    plainStack.localnet.resetStats();
    const answer = await postNames(plainStack, "/resolve", domains);
    expect(itemsOf(answer).every((item) => item.status === 200)).toBe(true);
    const { roundTrips, methods, httpRequests } = plainStack.localnet.stats;
    console.info(
      `bulk ${n} plain names: ${roundTrips} round trip(s), ${methods.getMultipleAccounts} getMultipleAccounts in ${httpRequests} HTTP request(s)`,
    );
    expect(roundTrips).toBe(1);
    expect(methods).toEqual({ getMultipleAccounts: Math.ceil((4 * n) / 100) });
    expect(methods.getMultipleAccounts).toBeLessThanOrEqual(bound(n));
  });

  it("1,000 names with 100 active NFT holders: 3 round trips, getMultipleAccounts within ⌈4n/100⌉ + 1", async () => {
    // Every holder's token account is read after its mint's largest holders are known; reads that follow
    // up on different replies (or parts of one, settled over several turns) still leave as one call of 100.
    const holders = generateStates(createRng(8), 100, { labels: ["nft/active"], namespace: "nftbulk" });
    const stack = await startStack(buildLedger([...plain.slice(0, 900), ...holders]));
    try {
      stack.localnet.setLatency(LATENCY_MS);
      const domains = [...plain.slice(0, 900), ...holders].map((state) => `${state.name}.sns`);
      const items = itemsOf(await postNames(stack, "/resolve", domains));
      expect(items.every((item) => item.status === 200)).toBe(true);
      const { roundTrips, methods, httpRequests } = stack.localnet.stats;
      console.info(
        `bulk 900 plain names and 100 NFT holders: ${roundTrips} round trips, ${JSON.stringify(methods)} in ${httpRequests} HTTP requests`,
      );
      expect(methods.getTokenLargestAccounts).toBe(100);
      expect(roundTrips).toBe(3);
      // 3,000 whole accounts in 30 calls and the 1,000 registry headers in 10, then the 100 token accounts in one.
      expect(methods.getMultipleAccounts).toBe(41);
      expect(methods.getMultipleAccounts).toBeLessThanOrEqual(bound(domains.length));
      // Again, the holders' token accounts known: read with the largest holders in the first round, not after them.
      stack.localnet.resetStats();
      expect(itemsOf(await postNames(stack, "/resolve", domains))).toEqual(items);
      const again = stack.localnet.stats;
      console.info(
        `bulk again: ${again.roundTrips} round trips, ${JSON.stringify(again.methods)} in ${again.httpRequests} HTTP requests`,
      );
      expect(again.roundTrips).toBe(1);
      // 3,000 whole accounts, the 100 token accounts guessed and the 1,000 registry headers, in one round.
      expect(again.methods).toEqual({ getMultipleAccounts: 41, getTokenLargestAccounts: 100 });
    } finally {
      await stack.close();
    }
  });

  it("a request's budget of JSON-RPC calls grows with its names: one GET's budget per 100 names", async () => {
    const stack = await startStack(buildLedger(plain), {
      ALLOW_PRIVATE_RPC_OVERRIDE: "true",
      RPC_OVERRIDE_RATE_LIMIT: "0",
      RPC_OVERRIDE_BUDGET_CALLS: "5",
    });
    try {
      const query = `?rpc=${encodeURIComponent(stack.localnet.url)}`;
      // 1,000 names take 40 calls: over one GET's 5, within 10 × 5.
      const domains = plain.map((state) => `${state.name}.sns`);
      const items = itemsOf(await post(stack, `/resolve${query}`, JSON.stringify({ domains })));
      expect(items.every((item) => item.status === 200)).toBe(true);
      // A GET is held to its own 5 calls, and a bulk of one name to one GET's.
      expect((await stack.get(`/resolve/${domains[0]}${query}`)).status).toBe(200);
    } finally {
      await stack.close();
    }
  });

  // 10–13 s in a full `npm test` on 2 cores (Node 20): room beyond the default 30 s.
  it(
    "a traffic-like mix of 1,000 names as .sns and .sol, the cutoff slot not yet known: at most 3 round trips",
    { timeout: 120_000 },
    async () => {
      const stack = await startStack(buildLedger(mix.states));
      try {
        stack.localnet.setLatency(MIX_LATENCY_MS);
        const domains = mix.entries
          .slice(0, 1000)
          .map((entry, i) => `${entry.name}${entry.suffixes[i % entry.suffixes.length]}`);
        const answer = await postNames(stack, "/resolve", domains);
        const statuses = new Set(itemsOf(answer).map((item) => item.status));
        for (const status of [200, 400, 404, 422, 500]) expect(statuses).toContain(status);
        const { roundTrips, methods, httpRequests } = stack.localnet.stats;
        const distinct = new Set(mix.entries.slice(0, 1000).map((entry) => entry.name)).size;
        console.info(
          `bulk mix of 1000 names (${distinct} distinct): ${roundTrips} round trips, ${JSON.stringify(methods)} in ${httpRequests} HTTP requests`,
        );
        expect(methods.getSlot).toBe(1);
        expect(methods.getTokenLargestAccounts).toBeGreaterThan(50);
        expect(roundTrips).toBeLessThanOrEqual(3);
        // NFT holders' token accounts come after their getTokenLargestAccounts answers, all in calls of 100:
        // one more call per 100 holders (at most one token account per getTokenLargestAccounts call); the
        // registry headers in calls of their own, one more at most (⌈a / 100⌉ + ⌈b / 100⌉ ≤ ⌈(a + b) / 100⌉ + 1).
        const holderCalls = Math.ceil(methods.getTokenLargestAccounts! / 100);
        expect(methods.getMultipleAccounts).toBeLessThanOrEqual(bound(distinct) + holderCalls);
      } finally {
        await stack.close();
      }
    },
  );
});

describeOnNode("POST /resolve: one request-log line and the bulk metrics (Node)", () => {
  it("logs names, items by status and JSON-RPC calls, and counts bulk requests and names in /metrics", async () => {
    const log = captureLog();
    const localnet = await startLocalnet({ ledger: await loadFixtureFile(DEMO_FIXTURE_PATH) });
    const gateway = await startGateway(
      loadConfig({ RPC_URL: localnet.url, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info" }),
      log.logger,
    );
    try {
      const domains = ["plain.sns", "PLAIN.sns", "nobody.sns", "bonfida.com", "v1-sol.sns"];
      const answer = await request(gateway.url, "/safe-resolve", { method: "POST", body: JSON.stringify({ domains }) });
      expect(answer.status).toBe(200);
      const lines = log.lines().filter((line) => line.msg === "request" && line.route === "/safe-resolve");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({
        method: "POST",
        status: 200,
        names: 5,
        distinctNames: 3,
        items: { "200": 3, "404": 1, "400": 1 },
        jsonRpcCalls: 1,
        rpcOverride: false,
      });
      const metrics = (await request(gateway.url, "/metrics")).text;
      expect(sampleValue(metrics, "sns_gateway_bulk_requests_total", { route: "/safe-resolve" })).toBe(1);
      expect(sampleValue(metrics, "sns_gateway_bulk_names_total", { route: "/safe-resolve" })).toBe(5);
      expect(
        sampleValue(metrics, "sns_gateway_http_requests_total", {
          route: "/safe-resolve",
          method: "POST",
          status: "200",
        }),
      ).toBe(1);
    } finally {
      await gateway.close();
      await localnet.close();
    }
  });
});

describe("POST /resolve and /safe-resolve with SOL_SRS_RESOLUTION=on: items equal the GET answers", () => {
  const seed = freshSeed();
  const srsStates = generateSrsStates(createRng(seed), 300, "bulksrs");
  let stack: Stack;
  beforeAll(async () => {
    const ledger = await loadFixtureFile(DEMO_FIXTURE_PATH);
    const now = Math.floor(Date.now() / 1000);
    for (const state of srsStates) state.write(ledger, now);
    stack = await startStack(ledger, { SOL_SRS_RESOLUTION: "on" });
  });
  afterAll(() => stack?.close());

  it.each(["resolve", "safe-resolve"])("/%s: SRS .sol names, their .sns side and the demo's names", async (route) => {
    const domains = [
      ...srsStates.flatMap((state) => [`${state.name}.sol`, `${state.name}.sns`]),
      "bonfida.sns",
      "plain.sol",
      "nobody.sol",
      "x.com",
    ];
    const answer = await postNames(stack, `/${route}`, domains);
    expect(answer.status).toBe(200);
    const items = itemsOf(answer);
    const gets: Item[] = new Array(domains.length);
    await mapLimit([...domains.keys()], 16, async (i) => {
      gets[i] = await getItem(stack, route, domains[i]!);
    });
    const differing = items.flatMap((item, i) =>
      JSON.stringify(item) === JSON.stringify(gets[i]) ? [] : [{ bulk: item, get: gets[i] }],
    );
    expect(differing, `seed ${seed}`).toEqual([]);
    const statuses = new Set(items.map((item) => item.status));
    for (const status of route === "safe-resolve" ? [200, 404, 409, 410, 422, 500] : [200, 404, 410, 422, 500]) {
      expect(statuses, `seed ${seed}`).toContain(status);
    }
  });
});
