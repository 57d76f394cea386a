import http from "node:http";
import type { AddressInfo } from "node:net";
import { isDeepStrictEqual } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AnswerLimits, AnswerShapeGuard } from "../../src/rpc/answer-shape.js";
import { ByteBudget } from "../../src/rpc/byte-budget.js";
import { HttpStatusError, OverloadedError, RpcEndpointRefusedError, RpcFailure } from "../../src/rpc/errors.js";
import { RequestBudget, RpcBudgetError } from "../../src/rpc/request-budget.js";
import {
  createPublicOnlyDispatcher,
  createUndiciTransport as createHttpTransport,
  publicOnlyLookup,
} from "../../src/rpc/transport/undici.js";
import { answerLimitsWithin, createTransport, defaultAnswerLimits } from "../../src/rpc/transport/contract.js";
import { fetchPost } from "../../src/rpc/transport/fetch.js";
import { Ledger, type Localnet, startLocalnet } from "../../src/localnet/index.js";
import {
  type Settled,
  type Tally,
  count,
  expectReached,
  mapLimit,
  settle,
  withContext,
} from "../../testkit/differential.js";
import { type Rng, createRng, seedFromEnv } from "../../testkit/rng.js";

let localnet: Localnet;
beforeAll(async () => {
  localnet = await startLocalnet({ ledger: new Ledger() });
});
afterAll(() => localnet.close());

/** A post through `dispatcher` to `host` at the localnet's port fails as refused, and the localnet sees nothing. */
async function expectRefusedAtConnect(
  host: string,
  dispatcher: ReturnType<typeof createPublicOnlyDispatcher>,
): Promise<void> {
  const transport = createHttpTransport(`http://${host}:${new URL(localnet.url).port}`, {
    dispatcher,
    timeoutMs: 2000,
    maxResponseBytes: 1 << 20,
    budget: new ByteBudget(1 << 24),
  });
  localnet.resetStats();
  await expect(transport.post('{"jsonrpc":"2.0","id":1,"method":"getSlot"}')).rejects.toBeInstanceOf(
    RpcEndpointRefusedError,
  );
  expect(localnet.stats.httpRequests).toBe(0);
  await dispatcher.close();
}

describe("public-only connections", () => {
  it("refuses names whose DNS answer is not public", async () => {
    const outcome = await new Promise<unknown>((resolve) =>
      publicOnlyLookup("localhost", {}, (error, address) => resolve(error ?? address)),
    );
    expect(outcome).toBeInstanceOf(RpcEndpointRefusedError);
  });

  it("refuses at connect time, before a byte is sent (DNS rebinding included)", async () => {
    // Bypasses the URL rules on purpose: the connect-time guard must hold on its own.
    await expectRefusedAtConnect("localhost", createPublicOnlyDispatcher());
  });

  it("caps the size of an answer", async () => {
    const { Agent } = await import("undici");
    const dispatcher = new Agent();
    localnet.setFault({ kind: "garbage", body: "x".repeat(4096) });
    const budget = new ByteBudget(1 << 24);
    const transport = createHttpTransport(localnet.url, {
      dispatcher,
      timeoutMs: 2000,
      maxResponseBytes: 1024,
      budget,
    });
    const failure = await transport.post("{}").catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RpcFailure);
    expect((failure as RpcFailure).kind).toBe("too-large");
    expect(budget.inUse).toBe(0);
    localnet.setFault(null);
    await dispatcher.close();
  });

  it("refuses an answer that does not fit the memory budget, and gives the budget back", async () => {
    const { Agent } = await import("undici");
    const dispatcher = new Agent();
    localnet.setFault({ kind: "garbage", body: JSON.stringify({ jsonrpc: "2.0", id: 1, result: "y".repeat(8192) }) });
    const budget = new ByteBudget(4096);
    const transport = createHttpTransport(localnet.url, {
      dispatcher,
      timeoutMs: 2000,
      maxResponseBytes: 1 << 20,
      budget,
    });
    const failure = await transport.post("{}").catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OverloadedError);
    expect(budget.inUse).toBe(0);
    const roomy = createHttpTransport(localnet.url, {
      dispatcher,
      timeoutMs: 2000,
      maxResponseBytes: 1 << 20,
      budget: new ByteBudget(1 << 20),
    });
    await expect(roomy.post("{}")).resolves.toMatchObject({ result: "y".repeat(8192) });
    localnet.setFault(null);
    await dispatcher.close();
  });
});

describe("Node exchange faults", () => {
  const limits = (timeoutMs = 2000) => ({ timeoutMs, maxResponseBytes: 1 << 20, budget: new ByteBudget(1 << 24) });
  const getSlot = '{"jsonrpc":"2.0","id":1,"method":"getSlot"}';

  it("maps an error status, a hang and a refused port to typed errors, and answers again afterwards", async () => {
    const { Agent } = await import("undici");
    const dispatcher = new Agent();
    const transport = createHttpTransport(localnet.url, { dispatcher, ...limits(300) });
    localnet.resetStats();
    localnet.setFault({ kind: "http-status", status: 429, body: "slow down" });
    await expect(transport.post(getSlot)).rejects.toMatchObject({
      kind: "http-status",
      message: "RPC answered HTTP 429",
    });
    localnet.setFault({ kind: "hang" });
    await expect(transport.post(getSlot)).rejects.toMatchObject({
      kind: "timeout",
      message: "no RPC answer within 300 ms",
    });
    localnet.setFault(null);
    await expect(transport.post(getSlot)).resolves.toMatchObject({ jsonrpc: "2.0", id: 1 });
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    server.close();
    const refused = createHttpTransport(`http://127.0.0.1:${port}`, { dispatcher, ...limits() });
    await expect(refused.post(getSlot)).rejects.toMatchObject({ kind: "network" });
    await dispatcher.close();
  });

  it("reads the answer after an informational status, and refuses a declared length over the limit", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, result: 7 });
    const server = http.createServer((request, response) => {
      request.resume();
      if (request.url === "/large") {
        response.writeHead(200, { "content-length": String(2 << 20) }).write("[");
        return;
      }
      response.writeEarlyHints({ link: "</x>; rel=preload" });
      response.writeHead(200, { "content-type": "application/json" }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const { Agent } = await import("undici");
    const dispatcher = new Agent();
    const budget = new ByteBudget(1 << 24);
    await expect(
      createHttpTransport(`http://127.0.0.1:${port}/`, { dispatcher, ...limits(), budget }).post(getSlot),
    ).resolves.toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: 7,
    });
    const large = createHttpTransport(`http://127.0.0.1:${port}/large`, { dispatcher, ...limits(), budget });
    await expect(large.post(getSlot)).rejects.toMatchObject({ kind: "too-large" });
    expect(budget.inUse).toBe(0);
    await dispatcher.close();
    server.closeAllConnections();
    server.close();
  });
});

// The Workers transport (standard fetch) shares the limits; Node's own fetch runs it here.
describe("fetch transport", () => {
  const limits = (maxResponseBytes: number, budget = new ByteBudget(1 << 24)) => ({
    timeoutMs: 2000,
    maxResponseBytes,
    budget,
  });

  it("answers, and caps the size of an answer with the budget given back", async () => {
    const ok = createTransport(localnet.url, limits(1 << 20), fetchPost);
    await expect(ok.post('{"jsonrpc":"2.0","id":1,"method":"getSlot"}')).resolves.toMatchObject({ jsonrpc: "2.0" });
    localnet.setFault({ kind: "garbage", body: "x".repeat(4096) });
    const budget = new ByteBudget(1 << 24);
    const failure = await createTransport(localnet.url, limits(1024, budget), fetchPost)
      .post("{}")
      .catch((e: unknown) => e);
    expect((failure as RpcFailure).kind).toBe("too-large");
    expect(budget.inUse).toBe(0);
    localnet.setFault(null);
  });

  it("does not follow redirects", async () => {
    const server = http.createServer((_, response) => response.writeHead(307, { location: localnet.url }).end());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    localnet.resetStats();
    const failure = await createTransport(`http://127.0.0.1:${port}`, limits(1 << 20), fetchPost)
      .post('{"jsonrpc":"2.0","id":1,"method":"getSlot"}')
      .catch((e: unknown) => e);
    expect((failure as RpcFailure).kind).toBe("http-status");
    expect(localnet.stats.httpRequests).toBe(0);
    server.close();
  });
});

describe("connect-time DNS check of IPv6 answers carrying an IPv4", () => {
  // A name whose DNS answer is one of these forms: the undici connector must refuse it before a byte is sent.
  it.each([
    ["IPv4-mapped", "::ffff:169.254.169.254"],
    ["IPv4-translated", "::ffff:0:a9fe:a9fe"],
    ["IPv4-compatible", "::127.0.0.1"],
    ["6to4", "2002:a9fe:a9fe::1"],
    ["Teredo (client inverted)", "2001:0:4136:e378:8000:63bf:80ff:fffe"],
    ["NAT64 well-known", "64:ff9b::a9fe:a9fe"],
    ["NAT64 local-use", "64:ff9b:1::a9fe:a9fe"],
  ])("%s (%s) is refused, nothing sent", async (_, address) => {
    const { publicOnlyLookupVia } = await import("../../src/rpc/transport/undici.js");
    const answers = (
      _host: string,
      _options: unknown,
      callback: (error: null, addresses: { address: string; family: number }[]) => void,
    ) => callback(null, [{ address, family: 6 }]);
    await expectRefusedAtConnect("rpc.example.com", createPublicOnlyDispatcher(publicOnlyLookupVia(answers as never)));
  });

  it("a public answer in one of these forms is let through to the connection", async () => {
    const { publicOnlyLookupVia } = await import("../../src/rpc/transport/undici.js");
    let looked = "";
    const answers = (
      host: string,
      _options: unknown,
      callback: (error: null, addresses: { address: string; family: number }[]) => void,
    ) => {
      looked = host;
      // Public by its carried IPv4, and actually where the localnet listens: 127.0.0.1 would be refused, so answer
      // the public form and let the connection fail or succeed at the socket level.
      callback(null, [{ address: "::ffff:8.8.8.8", family: 6 }]);
    };
    const lookup = publicOnlyLookupVia(answers as never);
    const outcome = await new Promise<unknown>((resolve) =>
      lookup("rpc.example.com", {}, (error, address) => resolve(error ?? address)),
    );
    expect(looked).toBe("rpc.example.com");
    expect(outcome).toBe("::ffff:8.8.8.8");
  });
});

/*
 * The undici exchange (src/rpc/transport/undici-exchange.ts) is held to the
 * fetch transport (src/rpc/transport/fetch.ts through createTransport) over
 * answers a plain HTTP server generates: statuses (2xx, redirects, 4xx, 413,
 * 429 and 503 with and without Retry-After, 5xx, an early 103 first), bodies
 * (JSON-RPC results and batches up to a few hundred KB, JSON-RPC errors,
 * truncated JSON, garbage bytes, nothing, one byte under, at and over the
 * byte limit, nesting and value counts past the structure limits), written
 * in several pieces with pauses (cut inside multi-byte characters too), with
 * and without Content-Length, some cut short by closing the socket, some
 * never finished, some connections closed before any answer; posted with the
 * same limits, memory budget and request budget on both sides. Both must
 * resolve to the same value, or fail with the same error class, kind and
 * details, and hold no budget bytes afterwards. A fresh seed per run,
 * printed; DIFF_SEED=<seed> replays one.
 */

const PARITY_SEED = seedFromEnv("DIFF_SEED");
const PARITY_CASES = 500;
console.info(
  `transport parity: seed ${PARITY_SEED} × ${PARITY_CASES} answers (reproduce with DIFF_SEED=${PARITY_SEED})`,
);

interface AnswerPlan {
  readonly status: number;
  readonly earlyHints: boolean;
  readonly retryAfter: string | undefined;
  readonly body: Buffer;
  readonly declareLength: boolean;
  /** Byte offsets where one write ends and the next begins, ascending. */
  readonly cuts: readonly number[];
  /** Milliseconds waited after each write (0: the next write follows at once). */
  readonly pauses: readonly number[];
  /** `close`: the socket is destroyed after `stopAfter` bytes; `hang`: nothing more is sent; `reset`: no answer at all. */
  readonly stop: "close" | "hang" | "reset" | undefined;
  readonly stopAfter: number;
}

interface ParityCase {
  readonly id: number;
  readonly label: string;
  readonly request: string;
  readonly plan: AnswerPlan;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly answerLimits: AnswerLimits | undefined;
  readonly memoryBytes: number;
  /** A request budget paying for the post, or undefined: none. */
  readonly payer: { readonly maxCalls: number; readonly maxBytes: number } | undefined;
}

function parityText(rng: Rng): string {
  const pieces = [
    "a",
    "Z",
    " ",
    '"',
    "\\",
    "\n",
    "\u0000",
    "\u001f",
    "é",
    "€",
    "中",
    "😀",
    "👩‍👩‍👧",
    "\u2028",
    "\ufeff",
    "\ud800",
  ];
  let text = "";
  for (let i = rng.int(0, 24); i > 0; i--) text += rng.pick(pieces);
  return text;
}

const base64Of = (rng: Rng, max: number) => Buffer.from(rng.bytes(rng.int(0, max))).toString("base64");

function parityValue(rng: Rng, depth: number): unknown {
  switch (rng.int(0, depth > 3 ? 4 : 7)) {
    case 0:
      return rng.int(-2_000_000_000, 2_000_000_000);
    case 1:
      return rng.pick([0, -0.5, 1e21, 2 ** 64, 5e-324, rng.next() * 1e6]);
    case 2:
      return parityText(rng);
    case 3:
      return rng.pick([true, false, null]);
    case 4:
      return base64Of(rng, 300);
    case 5:
      return Array.from({ length: rng.int(0, 5) }, () => parityValue(rng, depth + 1));
    case 6:
      return Object.fromEntries(
        Array.from({ length: rng.int(0, 5) }, () => [parityText(rng), parityValue(rng, depth + 1)]),
      );
    default: {
      const account = () => ({
        data: [base64Of(rng, 3000), "base64"],
        executable: false,
        lamports: rng.int(0, 1e9),
        owner: "11111111111111111111111111111111",
        rentEpoch: 2 ** 64,
        space: rng.int(0, 10_000),
      });
      return {
        context: { slot: rng.int(0, 300_000_000) },
        value: Array.from({ length: rng.int(0, 8) }, () => (rng.bool(0.2) ? null : account())),
      };
    }
  }
}

const rpcAnswer = (rng: Rng, id: number) =>
  rng.bool(0.15)
    ? {
        jsonrpc: "2.0",
        id,
        error: { code: rng.pick([-32602, -32005, -32600]), message: parityText(rng), data: parityValue(rng, 3) },
      }
    : { jsonrpc: "2.0", id, result: parityValue(rng, 0) };

/** A JSON-RPC answer of exactly `size` bytes, with multi-byte characters where a write may cut (shorter: not JSON). */
function sizedAnswer(rng: Rng, size: number): Buffer {
  const head = Buffer.from(`{"jsonrpc":"2.0","id":1,"result":"`);
  const tail = Buffer.from(`"}`);
  const wide = Buffer.from(Array.from({ length: rng.int(0, 30) }, () => rng.pick(["é", "€", "中", "😀"])).join(""));
  const room = size - head.length - tail.length - wide.length;
  if (room < 0) return Buffer.alloc(size, "x");
  const split = rng.int(0, room);
  return Buffer.concat([head, Buffer.alloc(split, "A"), wide, Buffer.alloc(room - split, "B"), tail]);
}

function parityBody(rng: Rng, maxBytes: number): { body: Buffer; kind: string } {
  const kinds = [
    "result",
    "result",
    "batch",
    "batch",
    "truncated",
    "garbage",
    "empty",
    "sized",
    "sized",
    "deep",
    "values",
  ];
  const kind = rng.pick(kinds);
  switch (kind) {
    case "result":
      return { kind, body: Buffer.from(JSON.stringify(rpcAnswer(rng, rng.int(0, 1000)))) };
    case "batch": {
      // Up to a few hundred KB: accounts with base64 data.
      const target = rng.int(1, 400_000);
      const answers: unknown[] = [];
      let size = 2;
      while (size < target && answers.length < 500) {
        const answer = rpcAnswer(rng, answers.length);
        size += JSON.stringify(answer).length + 1;
        answers.push(answer);
      }
      return { kind, body: Buffer.from(JSON.stringify(rng.shuffle(answers))) };
    }
    case "truncated": {
      const whole = Buffer.from(JSON.stringify(rpcAnswer(rng, 1)));
      return { kind, body: whole.subarray(0, rng.int(0, whole.length - 1)) };
    }
    case "garbage":
      return {
        kind,
        body: rng.bool()
          ? Buffer.from(rng.bytes(rng.int(1, 5000)))
          : Buffer.from(
              rng.pick(["<html>502 Bad Gateway</html>", "null", "123abc", "{}}", "[", "\ufeff{}", parityText(rng)]),
            ),
      };
    case "empty":
      return { kind, body: Buffer.alloc(0) };
    case "sized": {
      const offset = rng.pick([-1, 0, 1]);
      return {
        kind: `sized(limit${offset < 0 ? "-1" : offset > 0 ? "+1" : ""})`,
        body: sizedAnswer(rng, maxBytes + offset),
      };
    }
    case "deep": {
      const depth = rng.int(2, 30);
      return { kind: `deep(${depth})`, body: Buffer.from(`${"[".repeat(depth)}${"]".repeat(depth)}`) };
    }
    default: {
      const values = rng.pick([10, 1000, 40_000]);
      return { kind: `values(${values})`, body: Buffer.from(`[${"0,".repeat(values - 1)}0]`) };
    }
  }
}

function parityRequest(rng: Rng): string {
  const call = (id: number) => ({
    jsonrpc: "2.0",
    id,
    method: rng.pick(["getMultipleAccounts", "getAccountInfo", "getSlot", "getProgramAccounts"]),
    params: [
      Array.from({ length: rng.int(0, 100) }, () => base64Of(rng, 32)),
      { encoding: "base64", note: parityText(rng) },
    ],
  });
  return JSON.stringify(rng.bool(0.6) ? call(1) : Array.from({ length: rng.int(1, 8) }, (_, i) => call(i)));
}

const RETRY_AFTER = [
  "0",
  "1",
  "30",
  "120",
  " 7 ",
  "-3",
  "1.5",
  "soon",
  "Wed, 21 Oct 2099 07:28:00 GMT",
  "Thu, 01 Jan 1970 00:00:00 GMT",
];

function parityCase(rng: Rng, id: number): ParityCase {
  const maxResponseBytes = rng.pick([2048, 65_536, 262_144, 1 << 20]);
  const answerLimits: AnswerLimits | undefined = rng.bool(0.25)
    ? {
        maxBytes: rng.int(1000, maxResponseBytes * 2),
        maxTokens: rng.pick([50, 1000, 100_000]),
        maxDepth: rng.pick([3, 8, 16]),
      }
    : undefined;
  const effectiveBytes = Math.min(answerLimits?.maxBytes ?? Infinity, maxResponseBytes);
  const status = rng.bool(0.7)
    ? rng.pick([200, 200, 200, 201, 206])
    : rng.pick([301, 302, 307, 400, 404, 413, 429, 429, 500, 502, 503, 503, 504]);
  const { body, kind } = parityBody(rng, effectiveBytes);
  const cuts = new Set<number>();
  for (let i = rng.int(0, 7); i > 0 && body.length > 1; i--) cuts.add(rng.int(1, body.length - 1));
  // A cut inside a multi-byte character, where there is one.
  let inside = rng.int(1, Math.max(1, body.length - 1));
  while (inside < body.length && (body[inside]! & 0xc0) !== 0x80) inside++;
  if (inside < body.length) cuts.add(inside);
  const sorted = [...cuts].sort((a, b) => a - b);
  const stop = rng.bool(0.14) ? rng.pick(["close", "close", "hang", "reset"] as const) : undefined;
  const stopAfter = stop === "close" || stop === "hang" ? rng.int(0, Math.max(0, body.length - 1)) : body.length;
  const plan: AnswerPlan = {
    status,
    earlyHints: rng.bool(0.1),
    retryAfter: status >= 300 && rng.bool(0.6) ? rng.pick(RETRY_AFTER) : undefined,
    body,
    declareLength: rng.bool(),
    cuts: sorted,
    pauses: sorted.map(() => (rng.bool(0.6) ? 0 : rng.int(1, 4))),
    stop: stop === "close" && body.length === 0 ? "reset" : stop,
    stopAfter,
  };
  const memoryBytes = rng.bool(0.15) ? rng.int(512, 300_000) : 1 << 26;
  const payer = rng.bool(0.2) ? { maxCalls: rng.pick([0, 1, 5]), maxBytes: rng.int(100, 500_000) } : undefined;
  const label = [
    `case ${id}: ${status}${plan.earlyHints ? " after 103" : ""}${plan.retryAfter !== undefined ? ` Retry-After ${JSON.stringify(plan.retryAfter)}` : ""}`,
    `${kind} body of ${body.length} bytes${plan.declareLength ? " with Content-Length" : ""} in ${sorted.length + 1} writes`,
    plan.stop ? `${plan.stop} after ${plan.stop === "reset" ? 0 : stopAfter} bytes` : "",
    `limit ${effectiveBytes}${answerLimits ? ` (asked ${JSON.stringify(answerLimits)})` : ""}, memory ${memoryBytes}`,
    payer ? `payer ${JSON.stringify(payer)}` : "",
  ].filter(Boolean);
  return {
    id,
    label: label.join(", "),
    request: parityRequest(rng),
    plan,
    // A hang ends at the deadline; long enough that headers sent before the hang arrive first on a loaded machine.
    timeoutMs: plan.stop === "hang" ? 1_000 : 10_000,
    maxResponseBytes,
    answerLimits,
    memoryBytes,
    payer,
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Plays `plan` on `response`: headers, the body in its writes and pauses, then the end, a close or nothing. */
async function play(plan: AnswerPlan, response: http.ServerResponse): Promise<void> {
  response.on("error", () => undefined);
  if (plan.stop === "reset") {
    response.socket?.destroy();
    return;
  }
  if (plan.earlyHints) response.writeEarlyHints({ link: "</x>; rel=preload" });
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (plan.declareLength) headers["content-length"] = String(plan.body.length);
  if (plan.retryAfter !== undefined) headers["retry-after"] = plan.retryAfter;
  if (plan.status >= 300 && plan.status < 400) headers.location = "/elsewhere";
  response.writeHead(plan.status, headers);
  const end = plan.stop ? plan.stopAfter : plan.body.length;
  let from = 0;
  for (const [i, cut] of [...plan.cuts.filter((at) => at < end), end].entries()) {
    if (response.destroyed) return;
    if (cut > from) response.write(plan.body.subarray(from, cut));
    from = cut;
    const ms = plan.pauses[i] ?? 0;
    if (ms) await pause(ms);
  }
  if (plan.stop === "hang") return; // left open: the client's deadline ends it
  if (plan.stop === "close") response.socket?.destroy();
  else response.end();
}

/** An outcome as the details both transports must agree on. */
function outcomeOf(settled: Settled<unknown>): string {
  if (settled.ok) return "ok";
  const error = settled.error;
  if (error instanceof HttpStatusError) return `HttpStatusError ${error.status}, retry after ${error.retryAfterMs} ms`;
  if (error instanceof RpcBudgetError) return `RpcBudgetError ${error.bound}: ${error.message}`;
  // How the connection failed is worded by each client ("other side closed", "terminated"): the kind is the contract.
  if (error instanceof RpcFailure)
    return error.kind === "network" ? "RpcFailure network" : `RpcFailure ${error.kind}: ${error.message}`;
  if (error instanceof OverloadedError) return `OverloadedError: ${error.message}`;
  return `unexpected ${(error as Error)?.name}: ${(error as Error)?.message}`;
}

const kindOf = (settled: Settled<unknown>) =>
  settled.ok
    ? "ok"
    : settled.error instanceof RpcFailure
      ? settled.error.kind
      : settled.error instanceof OverloadedError
        ? "overloaded"
        : "unexpected";

/**
 * How many of its limits the answer passes while the reader takes it in:
 * bytes, structure, memory budget, request budget. Past two or more, which
 * one is met first depends on where the network split the body into chunks
 * (each chunk is checked whole), so the two sides may name different ones.
 */
function limitsPassed(testCase: ParityCase): number {
  const { plan } = testCase;
  if (plan.status < 200 || plan.status >= 300 || plan.stop === "reset") return 0;
  const limits = testCase.answerLimits
    ? answerLimitsWithin(testCase.answerLimits, testCase.maxResponseBytes)
    : defaultAnswerLimits(testCase.maxResponseBytes);
  if (plan.declareLength && plan.body.length > limits.maxBytes) return 0; // refused from the header, before any byte
  const read = plan.body.subarray(0, plan.stop ? plan.stopAfter : plan.body.length);
  let structure = 0;
  try {
    new AnswerShapeGuard({ ...limits, maxBytes: Infinity }).feed(read);
  } catch {
    structure = 1;
  }
  return (
    structure +
    Number(read.length > limits.maxBytes) +
    Number(read.length > testCase.memoryBytes) +
    Number(testCase.payer !== undefined && read.length > testCase.payer.maxBytes)
  );
}

describe(`undici exchange and fetch transport over generated answers (seed ${PARITY_SEED})`, () => {
  const plans = new Map<number, AnswerPlan>();
  const received = new Map<string, { body: string; contentType: string | undefined }>();
  let server: http.Server;
  let origin: string;

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const [, id, side] = /^\/case\/(\d+)\/(\w+)$/.exec(request.url ?? "") ?? [];
        received.set(`${id}/${side}`, {
          body: Buffer.concat(chunks).toString(),
          contentType: request.headers["content-type"],
        });
        const plan = plans.get(Number(id));
        if (plan) void play(plan, response);
        else response.writeHead(404).end();
      });
    });
    // Idle connections stay open for the whole run: a close racing a reused connection would be noise.
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it(`the same value or the same typed fault for ${PARITY_CASES} generated answers`, async () => {
    const { Agent } = await import("undici");
    const dispatcher = new Agent();
    const rng = createRng(PARITY_SEED);
    const cases = Array.from({ length: PARITY_CASES }, (_, id) => parityCase(rng, id));
    for (const testCase of cases) plans.set(testCase.id, testCase.plan);
    const tally: Tally = new Map();
    const started = performance.now();

    await mapLimit(cases, 8, (testCase) =>
      withContext(`seed=${PARITY_SEED} ${testCase.label}`, async () => {
        const post = async (side: "undici" | "fetch") => {
          const memory = new ByteBudget(testCase.memoryBytes);
          const limits = { timeoutMs: testCase.timeoutMs, maxResponseBytes: testCase.maxResponseBytes, budget: memory };
          const url = `${origin}/case/${testCase.id}/${side}`;
          const transport =
            side === "undici"
              ? createHttpTransport(url, { dispatcher, ...limits })
              : createTransport(url, limits, fetchPost);
          const payers =
            testCase.payer && new Map([[new RequestBudget({ deadlineMs: 60_000, maxItems: 0, ...testCase.payer }), 1]]);
          const settled = await settle(() =>
            transport.post(testCase.request, testCase.answerLimits, undefined, payers),
          );
          return { settled, held: memory.inUse };
        };
        const [ours, theirs] = await Promise.all([post("undici"), post("fetch")]);
        count(tally, kindOf(ours.settled));
        const mine = outcomeOf(ours.settled);
        const reference = outcomeOf(theirs.settled);
        if (mine !== reference) {
          const limitKinds = ["too-large", "overloaded", "budget"];
          const eitherLimit =
            limitsPassed(testCase) >= 2 &&
            limitKinds.includes(kindOf(ours.settled)) &&
            limitKinds.includes(kindOf(theirs.settled));
          // A hang after an error status's headers: one side may still be waiting for those headers when its
          // deadline passes (the machine's time, not the transport's rule); only a timeout may differ so.
          const deadlineFirst =
            testCase.plan.stop === "hang" &&
            [kindOf(ours.settled), kindOf(theirs.settled)].filter((kind) => kind === "timeout").length === 1;
          expect(eitherLimit || deadlineFirst, `undici: ${mine}; fetch: ${reference}`).toBe(true);
          count(tally, eitherLimit ? "limits met in another order" : "deadline first on one side");
        }
        if (ours.settled.ok && theirs.settled.ok) {
          expect(isDeepStrictEqual(ours.settled.value, theirs.settled.value), "the same parsed answer").toBe(true);
        }
        expect([ours.held, theirs.held], "budget bytes held after the exchange").toEqual([0, 0]);
        for (const [side, settled] of [
          ["undici", ours.settled],
          ["fetch", theirs.settled],
        ] as const) {
          const request = received.get(`${testCase.id}/${side}`);
          if (testCase.payer?.maxCalls === 0)
            expect(request, `${side}: nothing sent past the request budget`).toBeUndefined();
          // An exchange its deadline cut may have been cut before the server had the whole request (a loaded
          // machine); whatever did arrive whole is the request as posted.
          else if (request === undefined && kindOf(settled) === "timeout")
            count(tally, "cut before the request arrived");
          else
            expect(request, `${side}: the request as posted`).toEqual({
              body: testCase.request,
              contentType: "application/json",
            });
        }
      }),
    );
    await dispatcher.close();
    console.info(
      `transport parity: seed ${PARITY_SEED}: ${PARITY_CASES} answers in ${Math.round(performance.now() - started)} ms, ${JSON.stringify(Object.fromEntries(tally))}`,
    );
    expectReached(
      tally,
      ["ok", "http-status", "invalid-response", "too-large", "network", "timeout", "overloaded", "budget"],
      PARITY_SEED,
    );
  }, 60_000);
});
