import { Agent } from "undici";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DEMO_FIXTURE_PATH, loadFixtureFile } from "../../src/localnet/index.js";
import { type Localnet, startLocalnet } from "../../src/localnet/server.js";
import type { SettlePacing } from "../../src/rpc/account-loader.js";
import { OverloadedError } from "../../src/rpc/errors.js";
import type { AccountData } from "../../src/sns/chain.js";
import { deriveResolutionKeys } from "../../src/sns/derive.js";
import { testEndpoint } from "../../testkit/rpc-endpoint.js";

// The batching loader settles each `load` call once, with its accounts in the order of its keys: reads
// shared between calls, a key asked twice in one call, a failed read failing every call that asked for it.

let localnet: Localnet;
let dispatcher: Agent;
beforeAll(async () => {
  localnet = await startLocalnet({ ledger: await loadFixtureFile(DEMO_FIXTURE_PATH), latencyMs: 5 });
  dispatcher = new Agent();
});
afterEach(() => localnet.setFault(null));
afterAll(async () => {
  await dispatcher.close();
  await localnet.close();
});

const endpoint = (maxQueuedKeys = 1000, pacing?: () => SettlePacing) =>
  testEndpoint(localnet.url, dispatcher, { maxQueuedKeys, ...(pacing && { pacing }) });

/** Four resolution keys of each of `count` names, one call per name. */
const callsOfNames = (count: number, prefix: string) =>
  Array.from({ length: count }, (_, i) => {
    const keys = deriveResolutionKeys(i === 0 ? "bonfida" : `${prefix}-${i}`);
    return [keys.domain, keys.nftRecord, keys.solV1, keys.solV2];
  });

const bytesOf = (calls: (AccountData | null)[][]) =>
  calls.map((accounts) => accounts.map((account) => account && Buffer.from(account.data)));

const bonfida = deriveResolutionKeys("bonfida");
const missing = deriveResolutionKeys("no-such-name-anywhere");

describe("AccountLoader.load", () => {
  it("answers each call in its own key order, reads shared between calls fetched once", async () => {
    const chain = endpoint();
    const before = localnet.stats.methods.getMultipleAccounts ?? 0;
    const [first, second, empty] = await Promise.all([
      chain.getAccounts([bonfida.domain, missing.domain, bonfida.nftRecord]),
      chain.getAccounts([bonfida.nftRecord, bonfida.domain]),
      chain.getAccounts([]),
    ]);
    expect(empty).toEqual([]);
    expect(first).toHaveLength(3);
    expect(first[0]?.data.length).toBeGreaterThanOrEqual(96);
    expect(first[1]).toBeNull();
    expect(second[0]).toBe(first[2]);
    expect(second[1]).toBe(first[0]);
    // Three distinct keys, one getMultipleAccounts.
    expect((localnet.stats.methods.getMultipleAccounts ?? 0) - before).toBe(1);
    const alone = await endpoint().getAccounts([bonfida.domain]);
    expect(Buffer.from(alone[0]!.data)).toEqual(Buffer.from(first[0]!.data));
  });

  it("answers a key asked twice in one call at both places", async () => {
    const [a, b, c] = await endpoint().getAccounts([bonfida.domain, missing.domain, bonfida.domain]);
    expect(a).not.toBeNull();
    expect(c).toBe(a);
    expect(b).toBeNull();
  });

  it("fails every call that shared a failed read, and later calls read again", async () => {
    const chain = endpoint();
    localnet.setFault({ kind: "http-status", status: 503, method: "getMultipleAccounts", times: 1 });
    const outcomes = await Promise.allSettled([
      chain.getAccounts([bonfida.domain]),
      chain.getAccounts([missing.domain, bonfida.domain]),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["rejected", "rejected"]);
    const [again] = await chain.getAccounts([bonfida.domain]);
    expect(again).not.toBeNull();
  });

  it("refuses a call whose keys overflow the queue, and still answers the calls sharing its queued keys", async () => {
    const chain = endpoint(2);
    const first = chain.getAccounts([bonfida.domain]);
    const overflowing = chain.getAccounts([bonfida.nftRecord, missing.domain, missing.nftRecord]);
    // Joins the read the refused call queued: answered though that call failed.
    const sharing = chain.getAccounts([bonfida.nftRecord]);
    await expect(overflowing).rejects.toBeInstanceOf(OverloadedError);
    const [domain] = await first;
    expect(domain).not.toBeNull();
    const [nftRecord] = await sharing;
    const [alone] = await endpoint().getAccounts([bonfida.nftRecord]);
    expect(nftRecord).not.toBeNull();
    expect(Buffer.from(nftRecord!.data)).toEqual(Buffer.from(alone!.data));
  });

  it("fails every call sharing a reply the node answered in the wrong shape", async () => {
    const chain = endpoint();
    localnet.setFault({ kind: "malformed-result", method: "getMultipleAccounts", times: 1 });
    const outcomes = await Promise.allSettled([
      chain.getAccounts([bonfida.domain, missing.domain]),
      chain.getAccounts([missing.domain]),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["rejected", "rejected"]);
  });

  it("reads the heads it is asked for in calls of their own, a key read whole and as a head read twice", async () => {
    const fetched = localnet.watchCalls({ method: "getMultipleAccounts" });
    const sliced = localnet.watchCalls({
      method: "getMultipleAccounts",
      params: '"dataSlice":{"offset":0,"length":96}',
    });
    const keys = [bonfida.domain, bonfida.nftRecord, missing.domain, bonfida.solV2];
    const chain = endpoint();
    const [whole, heads] = await Promise.all([chain.getAccounts(keys), chain.readAccountHeads(keys, [96, 0, 96, 0])]);
    // One post: the whole accounts in one call, the two heads in another; nothing shared between the two kinds.
    expect([fetched.count, sliced.count]).toEqual([2, 1]);
    expect(whole[0]!.data.length).toBeGreaterThan(96);
    expect(Buffer.from(heads[0]!.data)).toEqual(Buffer.from(whole[0]!.data.subarray(0, 96)));
    expect({ ...heads[0]!, data: undefined }).toEqual({ ...whole[0]!, data: undefined });
    expect(heads[2]).toBeNull();
    expect(bytesOf([heads.filter((_, i) => i % 2 === 1)])).toEqual(bytesOf([whole.filter((_, i) => i % 2 === 1)]));
  });

  it("shares a head between the calls that ask for it", async () => {
    const sliced = localnet.watchCalls({ method: "getMultipleAccounts", params: '"dataSlice"' });
    const chain = endpoint();
    const [first, second] = await Promise.all([
      chain.readAccountHeads([bonfida.domain], [96]),
      chain.readAccountHeads([missing.domain, bonfida.domain], [96, 96]),
    ]);
    expect(sliced.count).toBe(1);
    expect(second[0]).toBeNull();
    expect(second[1]).toBe(first[0]);
  });

  it("reads whole the heads a node refuses, for the same callers, and asks that node for no heads again", async () => {
    const sliced = localnet.watchCalls({ method: "getMultipleAccounts", params: '"dataSlice"' });
    const fetched = localnet.watchCalls({ method: "getMultipleAccounts" });
    localnet.setFault({ kind: "jsonrpc-error", code: -32602, message: "no slices here", params: '"dataSlice"' });
    const chain = endpoint();
    const [headed, whole] = await Promise.all([
      chain.readAccountHeads([bonfida.domain, bonfida.nftRecord], [96, 0]),
      chain.getAccounts([bonfida.domain, bonfida.nftRecord]),
    ]);
    // The refused call of one head; its reader joins the read of the whole account asked beside it.
    expect([sliced.count, fetched.count]).toEqual([1, 2]);
    expect(headed[0]).toBe(whole[0]);
    expect(bytesOf([headed])).toEqual(bytesOf([whole]));
    const again = await chain.readAccountHeads([bonfida.domain], [96]);
    expect([sliced.count, fetched.count]).toEqual([1, 3]);
    expect(Buffer.from(again[0]!.data)).toEqual(Buffer.from(whole[0]!.data));
  });

  it("reads whole a head refused by another error, and asks for heads again next time", async () => {
    const sliced = localnet.watchCalls({ method: "getMultipleAccounts", params: '"dataSlice"' });
    localnet.setFault({ kind: "jsonrpc-error", code: -32000, message: "try again", params: '"dataSlice"', times: 1 });
    const chain = endpoint();
    const [headed] = await chain.readAccountHeads([bonfida.domain], [96]);
    expect(headed!.data.length).toBeGreaterThan(96);
    const [again] = await chain.readAccountHeads([bonfida.domain], [96]);
    expect(sliced.count).toBe(2);
    expect(Buffer.from(again!.data)).toEqual(Buffer.from(headed!.data.subarray(0, 96)));
  });

  it("fails only the readers of a call of heads answered in the wrong shape", async () => {
    localnet.setFault({ kind: "malformed-result", method: "getMultipleAccounts", params: '"dataSlice"' });
    const chain = endpoint();
    const outcomes = await Promise.allSettled([
      chain.readAccountHeads([bonfida.domain, bonfida.nftRecord], [96, 0]),
      chain.getAccounts([bonfida.domain, bonfida.nftRecord]),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["rejected", "fulfilled"]);
  });

  it("fills every call of a post of heads and whole accounts but each kind's last, within its calls per request", async () => {
    const fetched = localnet.watchCalls({ method: "getMultipleAccounts" });
    const posts = localnet.stats.httpRequests;
    // TEST_LOADER: 100 keys a call, 20 calls a request. 1,950 whole accounts, then 100 heads, then 50 whole:
    // the first post's 20 calls are the whole accounts' 20 (the heads wait for the next post, the last 50
    // whole accounts fill the 20th call); the next post carries the heads. 21 calls, where sending the post
    // once its 20 calls are open would leave the 20th half empty and take 22.
    const flat = callsOfNames(525, "mixed-post").flat();
    const heads = flat.map((_, i) => (i >= 1950 && i < 2050 ? 96 : 0));
    const read = await endpoint(4000).readAccountHeads(flat, heads);
    expect([fetched.count, localnet.stats.httpRequests - posts]).toEqual([21, 2]);
    const whole = await endpoint(4000).getAccounts(flat);
    expect(read.map((account) => account && Buffer.from(account.data))).toEqual(
      whole.map((account, i) => account && Buffer.from(heads[i] ? account.data.subarray(0, 96) : account.data)),
    );
  });

  it("answers calls whose keys a paced reply settles over several turns", async () => {
    let turns = 0;
    const pacing = () => ({
      slice: () => 1,
      yieldToIo: (task: () => void) => {
        turns++;
        const immediate = setImmediate(task);
        return () => clearImmediate(immediate);
      },
    });
    const chain = endpoint(1000, pacing);
    const names = ["bonfida", "no-such-name-anywhere", "another-missing-name", "and-one-more"].map(
      deriveResolutionKeys,
    );
    const calls = names.map((keys) => [keys.domain, keys.nftRecord, keys.solV1, keys.solV2]);
    const paced = await Promise.all(calls.map((keys) => chain.getAccounts(keys)));
    expect(turns).toBeGreaterThan(0);
    const unpaced = await Promise.all(calls.map((keys) => endpoint().getAccounts(keys)));
    expect(paced.map((accounts) => accounts.map((account) => account && Buffer.from(account.data)))).toEqual(
      unpaced.map((accounts) => accounts.map((account) => account && Buffer.from(account.data))),
    );
    expect(paced[0]![0]).not.toBeNull();
  });
});
