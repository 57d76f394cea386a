import { sha256 } from "@noble/hashes/sha2.js";
import type { Address } from "@solana/kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Localnet,
  Ledger,
  buildDomainAccounts,
  encodeNftRecord,
  identity,
  startLocalnet,
  tokenizeDomain,
} from "../../src/localnet/index.js";
import { ByteBudget } from "../../src/rpc/byte-budget.js";
import { RpcEndpoint } from "../../src/rpc/endpoint.js";
import type { RpcTransport } from "../../src/rpc/transport/contract.js";
import { createTrustedDispatcher, createUndiciTransport } from "../../src/rpc/transport/undici.js";
import { TokenizedIndex } from "../../src/service/tokenized-index.js";
import { bytesToAddress, utf8 } from "../../src/sns/bytes.js";
import type { ChainReader } from "../../src/sns/chain.js";
import { NAME_TOKENIZER_ID } from "../../src/sns/constants.js";
import { deriveDomainKey } from "../../src/sns/derive.js";

// The index's bootstrap when one answer of every active NFT record would not
// fit the answer budget: here the budget is made small instead of the ledger
// large, so the 256-partition fallback runs over 3,000 records.

const RECORDS = 3_000;
const ANSWER_BYTES = 256 * 1024;
const key = (label: string, i: number) => bytesToAddress(sha256(utf8.encode(`fallback:${label}:${i}`)));
const collector = identity("collector").address;

/** Calls per HTTP request and requests in flight, as the localnet receives them. */
interface Traffic {
  programScansPerRequest: number[];
  maxInFlight: number;
  /** HTTP requests carrying the index's own scans (its 96-byte slice) at once, at most. */
  maxIndexScansInFlight?: number;
}

function observed(inner: RpcTransport, traffic: Traffic): RpcTransport {
  let inFlight = 0;
  let indexScans = 0;
  return {
    url: inner.url,
    maxResponseBytes: inner.maxResponseBytes,
    async post(body, limits) {
      const calls = [JSON.parse(body) as { method: string } | { method: string }[]].flat();
      traffic.programScansPerRequest.push(calls.filter((call) => call.method === "getProgramAccounts").length);
      traffic.maxInFlight = Math.max(traffic.maxInFlight, ++inFlight);
      const indexScan = body.includes('"length":96');
      if (indexScan) traffic.maxIndexScansInFlight = Math.max(traffic.maxIndexScansInFlight ?? 0, ++indexScans);
      try {
        return await inner.post(body, limits);
      } finally {
        inFlight--;
        if (indexScan) indexScans--;
      }
    },
  };
}

/** Room for every record, and requests that wait for the build (the RPC deadline here is 30 s). */
const OPTIONS = { maxBytes: 64 * 1024 * 1024, maxWaitMs: 30_000 };

let localnet: Localnet;
let ledger: Ledger;
const dispatcher = createTrustedDispatcher();

beforeAll(async () => {
  ledger = new Ledger();
  for (let i = 0; i < RECORDS; i++) {
    const nameAccount = key("name", i);
    ledger.setAccount(key("record", i), {
      owner: NAME_TOKENIZER_ID,
      data: encodeNftRecord({ tag: 2, nonce: 255, nameAccount, owner: nameAccount, nftMint: key("mint", i) }),
    });
  }
  // Inactive records are not indexed, whatever their mint.
  for (let i = 0; i < 50; i++) {
    const nameAccount = key("gone", i);
    ledger.setAccount(key("inactive", i), {
      owner: NAME_TOKENIZER_ID,
      data: encodeNftRecord({ tag: 3, nonce: 255, nameAccount, owner: nameAccount, nftMint: key("gone-mint", i) }),
    });
  }
  for (const { address, account } of buildDomainAccounts({ name: "gallery", owner: collector }))
    ledger.setAccount(address, account);
  tokenizeDomain(ledger, { domainKey: deriveDomainKey("gallery"), holder: collector });
  localnet = await startLocalnet({ ledger });
});
afterAll(async () => {
  await localnet.close();
  await dispatcher.close();
});

/** `answerBytes` limits one answer; `memoryBytes` (default the same) the answers held at once. */
function endpointWith(traffic: Traffic, answerBytes: number, memoryBytes = answerBytes): RpcEndpoint {
  const budget = new ByteBudget(memoryBytes);
  const transport = createUndiciTransport(localnet.url, {
    dispatcher,
    timeoutMs: 30_000,
    maxResponseBytes: answerBytes,
    budget,
  });
  return new RpcEndpoint(
    observed(transport, traffic),
    {
      commitment: "processed",
      maxKeysPerCall: 100,
      maxCallsPerRequest: 20,
      maxInFlight: 1,
      windowMs: 4,
      maxQueuedKeys: 100_000,
    },
    { bytesPerAccount: 1024 * 1024, maxAnswerBytes: answerBytes },
  );
}

describe("tokenized index bootstrap over an answer budget", () => {
  it("falls back to 256 first-byte scans, a bounded number per request, and indexes every active record", async () => {
    const traffic: Traffic = { programScansPerRequest: [], maxInFlight: 0 };
    const endpoint = endpointWith(traffic, ANSWER_BYTES);
    const index = new TokenizedIndex(endpoint, OPTIONS);
    const names = await index.source(endpoint as ChainReader, collector as Address);

    expect(names).toEqual([deriveDomainKey("gallery")]);
    expect(index.stats).toMatchObject({ state: "ready", records: RECORDS + 1, bootstraps: 1 });
    const scans = traffic.programScansPerRequest;
    // The wallet's token query, the whole-program scan refused as too large, then 256 partitions.
    expect(scans.reduce((a, b) => a + b, 0)).toBe(1 + 1 + 256);
    expect(Math.max(...scans)).toBeLessThanOrEqual(16);
    expect(scans.filter((n) => n > 0).length).toBeGreaterThanOrEqual(256 / 16);

    // A rebuild (a backlog of 200 tokenizer transactions) skips the whole-program scan it knows is too large.
    for (let i = 0; i < 200; i++) {
      ledger.transact({ feePayer: collector, programs: [NAME_TOKENIZER_ID], writes: new Map() });
    }
    traffic.programScansPerRequest.length = 0;
    // This request scans (the wallet's token query, then its one mint); the rebuild runs behind it.
    expect(await index.source(endpoint as ChainReader, collector as Address)).toEqual([deriveDomainKey("gallery")]);
    await index.settled();
    expect(index.stats).toMatchObject({ state: "ready", records: RECORDS + 1, bootstraps: 2 });
    expect(traffic.programScansPerRequest.reduce((a, b) => a + b, 0)).toBe(1 + 1 + 256);
  });

  it("also partitions when the whole answer fits its limit but not the answer memory left", async () => {
    const traffic: Traffic = { programScansPerRequest: [], maxInFlight: 0 };
    const endpoint = endpointWith(traffic, 16 * 1024 * 1024, ANSWER_BYTES);
    const index = new TokenizedIndex(endpoint, OPTIONS);
    expect(await index.source(endpoint as ChainReader, collector as Address)).toEqual([deriveDomainKey("gallery")]);
    expect(index.stats.records).toBe(RECORDS + 1);
    expect(traffic.programScansPerRequest.reduce((a, b) => a + b, 0)).toBe(1 + 1 + 256);
  });

  it("answers the same with one whole-program scan when the answer fits", async () => {
    const traffic: Traffic = { programScansPerRequest: [], maxInFlight: 0 };
    const endpoint = endpointWith(traffic, 16 * 1024 * 1024);
    const index = new TokenizedIndex(endpoint, OPTIONS);
    expect(await index.source(endpoint as ChainReader, collector as Address)).toEqual([deriveDomainKey("gallery")]);
    expect(index.stats.records).toBe(RECORDS + 1);
    expect(traffic.programScansPerRequest.reduce((a, b) => a + b, 0)).toBe(2);
  });
});

describe("a tokenizer backlog that never ends", () => {
  it("is handled by one rebuild at a time; catch-ups are merged; requests scan instead of waiting", async () => {
    const traffic: Traffic = { programScansPerRequest: [], maxInFlight: 0 };
    const endpoint = endpointWith(traffic, 16 * 1024 * 1024);
    const maxWaitMs = 300;
    const index = new TokenizedIndex(endpoint, { maxBytes: 64 * 1024 * 1024, maxWaitMs });
    const gallery = deriveDomainKey("gallery");
    expect(await index.source(endpoint as ChainReader, collector as Address)).toEqual([gallery]);
    // More than a catch-up's worth of tokenizer transactions every 20 ms, for the whole test.
    const pump = setInterval(() => {
      for (let i = 0; i < 250; i++)
        ledger.transact({ feePayer: collector, programs: [NAME_TOKENIZER_ID], writes: new Map() });
    }, 20);
    try {
      const slowest: number[] = [];
      for (let round = 0; round < 3; round++) {
        const answers = await Promise.all(
          Array.from({ length: 50 }, async () => {
            const started = performance.now();
            const names = await index.source(endpoint as ChainReader, collector as Address);
            slowest.push(performance.now() - started);
            return names;
          }),
        );
        for (const names of answers) expect(names).toEqual([gallery]);
      }
      // 150 requests: far fewer catch-ups (merged), and rebuilds paced one at a time.
      const { catchUps, bootstraps } = index.stats;
      console.info(
        `150 requests over a growing backlog: ${catchUps} catch-ups, ${bootstraps} builds, slowest ${Math.round(Math.max(...slowest))} ms`,
      );
      expect(catchUps).toBeLessThan(30);
      expect(bootstraps).toBeLessThan(10);
      // Never waiting past their wait for the index, then one scan of their mint (a few ms on the localnet).
      expect(Math.max(...slowest)).toBeLessThan(maxWaitMs + 2000);
    } finally {
      clearInterval(pump);
      index.dispose();
    }
    expect(traffic.maxIndexScansInFlight).toBe(1);
  });
});

describe("a catch-up /ready starts (catchUpTo)", () => {
  it("refused by every endpoint (-32016, not at that slot yet): the index keeps its rows, its state and its floor, and is not rebuilt", async () => {
    const traffic: Traffic = { programScansPerRequest: [], maxInFlight: 0 };
    const endpoint = endpointWith(traffic, 16 * 1024 * 1024);
    const index = new TokenizedIndex(endpoint, OPTIONS);
    try {
      expect(await index.source(endpoint as ChainReader, collector as Address)).toEqual([deriveDomainKey("gallery")]);
      const before = index.stats;
      expect(before.state).toBe("ready");
      const floor = index.floor();
      // A slot no endpoint has yet (within what the index believes of a slot this soon, so it is asked).
      index.catchUpTo(ledger.slotAt("confirmed") + 5);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const after = index.stats;
      expect(after.state).toBe("ready");
      expect(after.records).toBe(before.records);
      expect(after.bootstraps).toBe(before.bootstraps);
      expect(after.catchUps).toBe(before.catchUps + 1);
      expect(index.floor()).toBe(floor);
    } finally {
      index.dispose();
    }
  });
});
