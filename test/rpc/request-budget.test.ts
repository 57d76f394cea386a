import { Agent } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUndiciTransport } from "../../src/rpc/transport/undici.js";
import { ByteBudget } from "../../src/rpc/byte-budget.js";
import { type BudgetLimits, RequestBudget, RpcBudgetError, payForAttempt } from "../../src/rpc/request-budget.js";
import { createTransport } from "../../src/rpc/transport/contract.js";
import { fetchPost } from "../../src/rpc/transport/fetch.js";
import { NAME_PROGRAM_ID, SNS_ROOT_DOMAIN, TOKEN_PROGRAM_ID } from "../../src/sns/constants.js";
import { addressToBytes } from "../../src/sns/bytes.js";
import { type HostileRpc, type ListingRpc, startHostileRpc, startListingRpc } from "../../testkit/hostile-rpc.js";
import { testEndpoint } from "../../testkit/rpc-endpoint.js";

// The budget as the transport consults it, over real HTTP: a listing server that counts the
// JSON-RPC calls it receives, and the hostile server's endless answer for the deadline.

let listing: ListingRpc;
let hostile: HostileRpc;
let dispatcher: Agent;
beforeAll(async () => {
  listing = await startListingRpc();
  hostile = await startHostileRpc();
  dispatcher = new Agent();
});
afterAll(async () => {
  await dispatcher.close();
  await listing.close();
  await hostile.close();
});

/** The gateway's commitment, and room for every key a listing test queues. */
const LOADER = { commitment: "processed", maxQueuedKeys: 100_000 };
const limits = (overrides: Partial<BudgetLimits>): BudgetLimits => ({
  deadlineMs: 10_000,
  maxCalls: 1_000,
  maxBytes: 1 << 30,
  maxItems: 1_000_000,
  ...overrides,
});

const endpointAt = (url: string) => testEndpoint(url, dispatcher, LOADER);

const ownedScan = (wallet: Uint8Array) => ({
  filters: [
    { memcmp: { offset: 32, bytes: wallet } },
    { memcmp: { offset: 0, bytes: addressToBytes(SNS_ROOT_DOMAIN) } },
  ],
  dataSlice: { offset: 0, length: 0 },
});

describe("a request's budget, paid by the transport", () => {
  it("pays for each call sent; past its calls nothing more is sent and every later read fails at once", async () => {
    const endpoint = endpointAt(listing.urlFor("owned", 10, "calls"));
    const budget = new RequestBudget(limits({ maxCalls: 3 }));
    listing.resetStats();
    for (let i = 0; i < 3; i++) {
      const { accounts } = await endpoint.getProgramAccounts(
        NAME_PROGRAM_ID,
        ownedScan(new Uint8Array(32).fill(i)),
        budget,
      );
      expect(accounts).toHaveLength(10);
    }
    const failure = await endpoint
      .getProgramAccounts(NAME_PROGRAM_ID, ownedScan(new Uint8Array(32)), budget)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RpcBudgetError);
    expect((failure as RpcBudgetError).bound).toBe("calls");
    await expect(endpoint.getAccounts([SNS_ROOT_DOMAIN], budget)).rejects.toBe(failure);
    expect(listing.stats.calls).toBe(3);
    expect(budget.used.calls).toBe(3);
  });

  it("each request pays one call for a batch call carrying its reads, joined while queued too", async () => {
    const endpoint = endpointAt(listing.urlFor("owned", 1, "shared"));
    const first = new RequestBudget(limits({}));
    const second = new RequestBudget(limits({}));
    listing.resetStats();
    const keys = Array.from({ length: 150 }, (_, i) =>
      addressToBytes(SNS_ROOT_DOMAIN).map((b, j) => (j === 0 ? i : b)),
    );
    const { bytesToAddress } = await import("../../src/sns/bytes.js");
    const addresses = keys.map(bytesToAddress);
    await Promise.all([endpoint.getAccounts(addresses, first), endpoint.getAccounts(addresses.slice(0, 10), second)]);
    // 150 keys: two getMultipleAccounts calls in one batch, both carrying the first request's reads,
    // the first also the second's (joined while queued: it pays for the call that carries them too).
    expect(listing.stats.calls).toBe(2);
    expect([first.used.calls, second.used.calls]).toEqual([2, 1]);
  });

  it("a queued read shared by several requests is sent while any of them can pay: one out of allowance fails no one else", async () => {
    const endpoint = endpointAt(listing.urlFor("owned", 1, "joined"));
    const { bytesToAddress } = await import("../../src/sns/bytes.js");
    const key = bytesToAddress(addressToBytes(SNS_ROOT_DOMAIN).map((b, j) => (j === 1 ? 7 : b)));
    const spent = new RequestBudget(limits({}), { tryTake: () => false });
    const joiner = new RequestBudget(limits({}));
    listing.resetStats();
    const [first, second] = await Promise.allSettled([
      endpoint.getAccounts([key], spent),
      endpoint.getAccounts([key], joiner),
    ]);
    expect(first.status).toBe("fulfilled");
    expect(second.status).toBe("fulfilled");
    expect(listing.stats.calls).toBe(1);
    expect([spent.exhausted?.bound, spent.used.calls, joiner.used.calls]).toEqual(["client", 0, 1]);
    // The same for a coalesced call (a mint's largest holders).
    const mint = bytesToAddress(addressToBytes(TOKEN_PROGRAM_ID).map((b, j) => (j === 2 ? 9 : b)));
    const spentToo = new RequestBudget(limits({}), { tryTake: () => false });
    const joinerToo = new RequestBudget(limits({}));
    const holders = await Promise.allSettled([
      endpoint.getTokenLargestAccounts(mint, spentToo),
      endpoint.getTokenLargestAccounts(mint, joinerToo),
    ]);
    expect(
      holders.map((outcome) => outcome.status === "fulfilled" || (outcome.reason as Error).constructor.name),
    ).not.toContain("RpcBudgetError");
    expect([spentToo.exhausted?.bound, joinerToo.used.calls]).toEqual(["client", 1]);
  });

  it("every attempt pays again (a retry or a failover is counted)", () => {
    const budget = new RequestBudget(limits({ maxCalls: 5 }));
    const payers = new Map([[budget, 2]]);
    payForAttempt(payers);
    payForAttempt(payers);
    expect(budget.used.calls).toBe(4);
    expect(() => payForAttempt(payers)).toThrow(RpcBudgetError);
    expect(budget.used.calls).toBe(4);
  });

  it("pays for answer bytes as they arrive and cuts the answer past them", async () => {
    const endpoint = endpointAt(listing.urlFor("mints", 2_000, "bytes"));
    const budget = new RequestBudget(limits({ maxBytes: 64 * 1024 }));
    const failure = await endpoint
      .getProgramAccounts(
        TOKEN_PROGRAM_ID,
        { filters: [{ dataSize: 165 }], dataSlice: { offset: 0, length: 32 } },
        budget,
      )
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RpcBudgetError);
    expect((failure as RpcBudgetError).bound).toBe("bytes");
    expect(budget.used.bytes).toBeLessThanOrEqual(64 * 1024);
  });

  it("cuts an exchange at the request's deadline, shorter than the RPC timeout (undici and fetch)", async () => {
    for (const transport of [
      createUndiciTransport(hostile.urlFor("slow-drip", "deadline"), {
        dispatcher,
        timeoutMs: 5000,
        maxResponseBytes: 1 << 20,
        budget: new ByteBudget(1 << 24),
      }),
      createTransport(
        hostile.urlFor("slow-drip", "deadline-fetch"),
        { timeoutMs: 5000, maxResponseBytes: 1 << 20, budget: new ByteBudget(1 << 24) },
        fetchPost,
      ),
    ]) {
      const budget = new RequestBudget(limits({ deadlineMs: 300 }));
      const started = performance.now();
      const failure = await transport
        .post('{"jsonrpc":"2.0","id":1,"method":"getSlot"}', undefined, undefined, new Map([[budget, 1]]))
        .catch((e: unknown) => e);
      const ms = performance.now() - started;
      expect((failure as { kind?: string }).kind).toBe("timeout");
      expect(ms).toBeLessThan(1500);
      // Past the deadline, nothing more is sent.
      expect(() => budget.check()).toThrow(RpcBudgetError);
      expect(() => payForAttempt(new Map([[budget, 1]]))).toThrow(RpcBudgetError);
    }
  });

  it("refuses a list longer than the items left before any of it is worked through", () => {
    const budget = new RequestBudget(limits({ maxItems: 100 }));
    budget.spendItems(60);
    expect(() => budget.spendItems(41)).toThrow(RpcBudgetError);
    expect(budget.exhausted?.bound).toBe("items");
    expect(() => budget.spendItems(1)).toThrow(RpcBudgetError);
  });

  it("draws on its client's allowance, and ends with the client's bound when that is spent", () => {
    let left = 3;
    const allowance = { tryTake: (calls: number) => (calls <= left ? ((left -= calls), true) : false) };
    const budget = new RequestBudget(limits({}), allowance);
    expect(budget.tryCalls(2)).toBe(true);
    expect(budget.tryCalls(2)).toBe(false);
    expect(budget.exhausted?.bound).toBe("client");
    expect(left).toBe(1);
  });
});
