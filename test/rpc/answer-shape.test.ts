import { describe, expect, it } from "vitest";
import { type AnswerLimits, AnswerShapeGuard, limitsFor } from "../../src/rpc/answer-shape.js";
import { ByteBudget } from "../../src/rpc/byte-budget.js";
import { JsonRpcError, MAX_QUOTED_CHARS, type RpcError, quote } from "../../src/rpc/errors.js";

const roomy: AnswerLimits = { maxBytes: 1 << 26, maxTokens: 1000, maxDepth: 8 };

/** Feeds `text` in chunks of `size` bytes; returns the error kind, or "ok". */
function scan(text: string, limits: AnswerLimits = roomy, size = 7): string {
  const guard = new AnswerShapeGuard(limits);
  const bytes = Buffer.from(text);
  try {
    for (let i = 0; i < bytes.length; i += size) guard.feed(bytes.subarray(i, i + size));
    return "ok";
  } catch (error) {
    return `${(error as RpcError).kind}: ${(error as Error).message}`;
  }
}

const account = {
  data: ["AAAA", "base64"],
  executable: false,
  lamports: 1,
  owner: "11111111111111111111111111111111",
  rentEpoch: 0,
  space: 3,
};
const answerFor = (keys: number) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    result: { context: { apiVersion: "2.2.0", slot: 1 }, value: Array(keys).fill(account) },
  });

describe("answer shape guard", () => {
  it("passes real getMultipleAccounts answers within the limits derived for them", () => {
    for (const keys of [1, 4, 100]) {
      const call = { method: "getMultipleAccounts", params: [Array(keys).fill("k"), {}] };
      const limits = limitsFor([call], { bytesPerAccount: 1 << 20, maxAnswerBytes: 1 << 24 });
      for (const size of [1, 3, 64, 1 << 16]) expect(scan(answerFor(keys), limits, size)).toBe("ok");
    }
  });

  it("refuses a flat array of empty arrays long before JSON.parse would build it", () => {
    const limits = limitsFor([{ method: "getMultipleAccounts", params: [["a", "b", "c", "d"]] }], {
      bytesPerAccount: 1 << 20,
      maxAnswerBytes: 1 << 24,
    });
    expect(scan(`{"result":[${"[],".repeat(100_000)}[]]}`, limits, 4096)).toMatch(/^too-large: .*JSON values/);
  });

  it("refuses deep nesting at the first level too deep", () => {
    expect(scan("[".repeat(9) + "]".repeat(9))).toMatch(/^too-large: .*nests deeper than 8/);
    expect(scan("[".repeat(8) + "]".repeat(8))).toBe("ok");
  });

  it("refuses an answer longer than its byte limit", () => {
    expect(scan(`"${"x".repeat(100)}"`, { ...roomy, maxBytes: 50 })).toMatch(/^too-large: .*exceeds 50 bytes/);
  });

  it("does not count brackets and commas inside strings, escapes included, across chunk edges", () => {
    const tricky = JSON.stringify({ s: `[,{,\\",]}${"[,".repeat(5000)}\\`, t: ['\\"', "\\\\"] });
    for (const size of [1, 2, 3, 5, 4096])
      expect(scan(tricky, { ...roomy, maxTokens: 10, maxDepth: 3 }, size)).toBe("ok");
  });

  it("sizes batches as the sum of their calls and never above the ceiling", () => {
    const sizing = { bytesPerAccount: 1000, maxAnswerBytes: 1 << 20 };
    const one = limitsFor([{ method: "getMultipleAccounts", params: [["a"]] }], sizing);
    const two = limitsFor(
      [
        { method: "getMultipleAccounts", params: [["a"]] },
        { method: "getTokenLargestAccounts", params: ["m"] },
      ],
      sizing,
    );
    expect(two.maxBytes).toBeGreaterThan(one.maxBytes);
    expect(two.maxTokens).toBeGreaterThan(one.maxTokens);
    const huge = limitsFor([{ method: "getMultipleAccounts", params: [Array(100).fill("k")] }], {
      ...sizing,
      bytesPerAccount: 1 << 20,
    });
    expect(huge.maxBytes).toBe(1 << 20);
  });
});

describe("byte budget", () => {
  it("takes from every level or from none", () => {
    const whole = new ByteBudget(100);
    const poolA = new ByteBudget(80, whole);
    const poolB = new ByteBudget(50, whole);
    const endpoint = new ByteBudget(60, poolA);
    expect(endpoint.tryTake(60)).toBe(true);
    expect(endpoint.tryTake(1)).toBe(false);
    expect(poolB.tryTake(50)).toBe(false); // the whole has 40 left
    expect(poolB.tryTake(40)).toBe(true);
    expect(whole.inUse).toBe(100);
    endpoint.release(60);
    poolB.release(40);
    expect([whole.inUse, poolA.inUse, poolB.inUse, endpoint.inUse]).toEqual([0, 0, 0, 0]);
  });
});

describe("quoting what a remote server said", () => {
  it("keeps a bounded, printable excerpt", () => {
    const error = new JsonRpcError(-32000, `evil\n\u001b[31m${"x".repeat(12_000_000)}`, {
      logs: Array(1000).fill("l"),
    });
    expect(error.message.length).toBeLessThan(MAX_QUOTED_CHARS + 40);
    expect(error.message).not.toMatch(/[\n\u001b]/);
    expect(error.data).toBe("[object]");
    expect(quote("y".repeat(5000))).toHaveLength(MAX_QUOTED_CHARS + 1);
    expect(quote(["a"])).toBe("[array of 1]");
  });
});
