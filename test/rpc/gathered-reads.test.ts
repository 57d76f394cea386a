import type { Address } from "@solana/kit";
import { describe, expect, it } from "vitest";
import type { AccountData } from "../../src/sns/chain.js";
import type { RpcEndpoint } from "../../src/rpc/endpoint.js";
import { gatheredReads } from "../../src/rpc/gathered-reads.js";

// A bulk request's view of its endpoint (src/rpc/gathered-reads.ts): reads asked for while the view is
// closed, or while any of its reads is in flight, leave together on a later turn, and each reader gets
// its own outcome, whatever another read does.

const nextTurn = () => new Promise<void>((resume) => setImmediate(resume));
const key = (n: number) => `Key${n}` as Address;

/** An endpoint whose reads answer on the next turn, recording the turn each was sent in; `Key0` throws at once. */
function recordingEndpoint() {
  let turn = 0;
  const sent: { keys: readonly Address[]; turn: number }[] = [];
  const ticking = setInterval(() => turn++, 0);
  const endpoint = {
    getAccounts(keys: readonly Address[]): Promise<(AccountData | null)[]> {
      if (keys.includes(key(0))) throw new Error("thrown, not rejected");
      sent.push({ keys, turn });
      return nextTurn().then(() => keys.map(() => null));
    },
  } as unknown as RpcEndpoint;
  return { endpoint, sent, stop: () => clearInterval(ticking) };
}

describe("gatheredReads", () => {
  it("sends the reads asked for while closed together once opened, each answered", async () => {
    const { endpoint, sent, stop } = recordingEndpoint();
    try {
      const reads = gatheredReads(endpoint, nextTurn);
      const first = reads.endpoint.getAccounts([key(1)]);
      await nextTurn();
      const second = reads.endpoint.getAccounts([key(2), key(3)]);
      await nextTurn();
      expect(sent).toEqual([]);
      reads.open();
      expect(await first).toEqual([null]);
      expect(await second).toEqual([null, null]);
      expect(sent.map(({ keys }) => keys)).toEqual([[key(1)], [key(2), key(3)]]);
      expect(new Set(sent.map(({ turn }) => turn)).size).toBe(1);
    } finally {
      stop();
    }
  });

  it("fails only the reader whose read throws, and later reads still leave", async () => {
    const { endpoint, sent, stop } = recordingEndpoint();
    try {
      const reads = gatheredReads(endpoint, nextTurn);
      reads.open();
      const thrown = reads.endpoint.getAccounts([key(0)]);
      const fine = reads.endpoint.getAccounts([key(4)]);
      await expect(thrown).rejects.toThrow("thrown, not rejected");
      expect(await fine).toEqual([null]);
      expect(await reads.endpoint.getAccounts([key(5)])).toEqual([null]);
      expect(sent.map(({ keys }) => keys)).toEqual([[key(4)], [key(5)]]);
    } finally {
      stop();
    }
  });
});
