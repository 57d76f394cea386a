import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Connection, PublicKey } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type CallCount,
  type Fault,
  Ledger,
  buildDomainAccounts,
  identity,
  tokenizeDomain,
  transferDomainNft,
  transferName,
  unwrapDomain,
} from "../../src/localnet/index.js";
import { NAME_TOKENIZER_ID } from "../../src/sns/constants.js";
import { deriveDomainKey, deriveNftRecordKey, deriveTokenizedMint } from "../../src/sns/derive.js";
import { sampleValue } from "../../testkit/prometheus.js";
import { type Stack, onWorkerd, request, startStack, describeOnWorkerd } from "../../testkit/stack.js";
import { startWorkerdGateway } from "../../testkit/workerd-gateway.js";

/** The index's whole-program scan (its 96-byte slice), told apart from the per-mint scans and the wallet's. */
const INDEX_SCAN = '"dataSlice":{"offset":2,"length":96}';
const alice = identity("alice").address;
const bob = identity("bob").address;
const carol = identity("carol").address;

let ledger: Ledger;
let stack: Stack;
let scanning: Stack;

const domainsOf = async (target: Stack, wallet: string, query = "") => {
  const answer = await target.get(`/domains/${wallet}${query}`);
  expect(answer.status).toBe(200);
  return (answer.body as { result: { domain: string; key: string }[] }).result;
};

beforeAll(async () => {
  ledger = new Ledger();
  for (const name of ["art", "music", "zeta"]) {
    for (const { address, account } of buildDomainAccounts({ name, owner: alice })) ledger.setAccount(address, account);
  }
  stack = await startStack(ledger, { ALLOW_PRIVATE_RPC_OVERRIDE: "true" });
  // The same chain without the index: every request scans the tokenizer, as the SDK does.
  scanning = await startStack(ledger, { TOKENIZED_INDEX: "off" });
});
afterAll(async () => {
  await stack.close();
  await scanning.close();
});

describe("/domains follows tokenize, transfer and unwrap while the gateway runs", () => {
  it("tracks every change on the next request, equal to the scanning path", async () => {
    const art = deriveDomainKey("art");
    const byKey = (a: string, b: string) => (deriveDomainKey(a) < deriveDomainKey(b) ? -1 : 1);
    expect((await domainsOf(stack, alice)).map((d) => d.domain)).toEqual(["art", "music", "zeta"].sort(byKey));

    tokenizeDomain(ledger, { domainKey: art, holder: bob });
    expect(await domainsOf(stack, bob)).toEqual([{ domain: "art", key: art }]);
    expect((await domainsOf(stack, alice)).map((d) => d.domain)).not.toContain("art");

    transferDomainNft(ledger, { domainKey: art, from: bob, to: carol });
    expect(await domainsOf(stack, bob)).toEqual([]);
    expect(await domainsOf(stack, carol)).toEqual([{ domain: "art", key: art }]);

    unwrapDomain(ledger, { domainKey: art, to: bob });
    expect(await domainsOf(stack, carol)).toEqual([]);
    expect(await domainsOf(stack, bob)).toEqual([{ domain: "art", key: art }]);

    tokenizeDomain(ledger, { domainKey: art, holder: carol });
    for (const wallet of [alice, bob, carol]) {
      const indexed = await domainsOf(stack, wallet);
      expect(indexed).toEqual(await domainsOf(scanning, wallet));
      // An `rpc` override takes the scanning path on the same chain: same answer.
      const viaOverride = `?rpc=${encodeURIComponent(`http://localhost:${stack.localnet.port}/`)}`;
      expect(await domainsOf(stack, wallet, viaOverride)).toEqual(indexed);
    }
    expect(await domainsOf(stack, carol)).toEqual([{ domain: "art", key: art }]);
  });

  it("rebuilds from a full scan when the backlog reaches 200 transactions", async () => {
    const music = deriveDomainKey("music");
    await domainsOf(stack, alice); // caught up
    tokenizeDomain(ledger, { domainKey: music, holder: bob });
    for (let i = 0; i < 110; i++) {
      transferDomainNft(ledger, { domainKey: music, from: bob, to: carol });
      transferDomainNft(ledger, { domainKey: music, from: carol, to: bob });
    }
    // Token transfers do not name the tokenizer, so pad its history with tokenizer transactions.
    for (let i = 0; i < 200; i++) {
      ledger.transact({
        feePayer: bob,
        programs: [NAME_TOKENIZER_ID],
        writes: new Map(),
        readonly: [deriveNftRecordKey(music)],
      });
    }
    // Answered at once (by the tokenizer scan of its mint while the index rebuilds behind it).
    expect((await domainsOf(stack, bob)).map((d) => d.domain)).toContain("music");
    // Once rebuilt, the index answers again: the wallet's two scans and nothing else (on Workers, the index object).
    const scansPerRequest = async () => {
      stack.localnet.resetStats();
      expect((await domainsOf(stack, bob)).map((d) => d.domain)).toContain("music");
      return stack.localnet.stats.methods.getProgramAccounts;
    };
    await expect.poll(scansPerRequest, { timeout: 10_000 }).toBe(2);
  });

  it("answers the official SDK's token and tokenizer scans from the localnet", async () => {
    const connection = new Connection(stack.localnet.url, "confirmed");
    const signatures = await connection.getSignaturesForAddress(new PublicKey(NAME_TOKENIZER_ID), { limit: 5 });
    expect(signatures).toHaveLength(5);
    // The localnet records version 1 transactions by default, as mainnet may: a client must ask for them.
    const parsed = await connection.getParsedTransactions(
      signatures.map((s) => s.signature),
      { maxSupportedTransactionVersion: 1 },
    );
    for (const tx of parsed) {
      expect(tx?.transaction.message.accountKeys.some((key) => key.pubkey.toBase58() === NAME_TOKENIZER_ID)).toBe(true);
    }
    const older = await connection.getSignaturesForAddress(new PublicKey(NAME_TOKENIZER_ID), {
      before: signatures[4]!.signature,
      limit: 2,
    });
    expect(older[0]!.slot).toBeLessThanOrEqual(signatures[4]!.slot);
    expect(older.map((s) => s.signature)).not.toContain(signatures[4]!.signature);
    const newer = await connection.getSignaturesForAddress(new PublicKey(NAME_TOKENIZER_ID), {
      until: signatures[2]!.signature,
    });
    expect(newer.map((s) => s.signature)).toEqual(signatures.slice(0, 2).map((s) => s.signature));
  });
});

describe("/domains on the chain of late 2026: version 1 transactions, and versions mixed, in the index's catch-up", () => {
  const solo = deriveDomainKey("solo");
  const duo = deriveDomainKey("duo");
  let chain: Ledger;
  let target: Stack;
  let counts: { fallbacks: CallCount[]; rebuilds: CallCount; transactions: CallCount };

  /** Per-mint tokenizer scans: what `/domains` sends when the index cannot answer (on Node and on workerd alike). */
  const fallbacks = () => counts.fallbacks.reduce((sum, count) => sum + count.count, 0);
  /** Fallbacks as the Node gateway counts them in /metrics, every reason together (Workers export no metrics). */
  const countedFallbacks = async () => {
    const text = (await target.get("/metrics")).text;
    return ["building", "failed", "over_budget", "slow"].reduce(
      (sum, reason) => sum + sampleValue(text, "sns_gateway_tokenized_index_fallbacks_total", { reason }),
      0,
    );
  };
  const domainNames = async (wallet: string) => (await domainsOf(target, wallet)).map((d) => d.domain).sort();

  beforeAll(async () => {
    chain = new Ledger();
    for (const name of ["solo", "duo"]) {
      for (const { address, account } of buildDomainAccounts({ name, owner: alice }))
        chain.setAccount(address, account);
    }
    target = await startStack(chain);
    // Alice holds duo's NFT throughout: each of her requests has the index catch up with every new tokenizer transaction.
    tokenizeDomain(chain, { domainKey: duo, holder: alice, version: 1 });
    expect(await domainNames(alice)).toEqual(["duo", "solo"]);
    const mintScan = (domain: typeof solo) => `{"offset":66,"bytes":"${deriveTokenizedMint(domain)}"}`;
    counts = {
      fallbacks: [solo, duo].map((domain) =>
        target.localnet.watchCalls({ method: "getProgramAccounts", params: mintScan(domain) }),
      ),
      // The whole-program scan (or its partitions) only a build sends: the first one is behind us.
      rebuilds: target.localnet.watchCalls({ method: "getProgramAccounts", params: INDEX_SCAN }),
      transactions: target.localnet.watchCalls({ method: "getTransaction" }),
    };
  });
  afterAll(() => target.close());

  it("tokenize, NFT transfer, redeem, name transfer, tokenize again, each a version 1 transaction: no fallback, no rebuild", async () => {
    const before = onWorkerd ? 0 : await countedFallbacks();
    const signatures: string[] = [];
    const step = async (signature: string, expected: Record<string, string[]>) => {
      signatures.push(signature);
      for (const [wallet, names] of Object.entries(expected)) expect(await domainNames(wallet), wallet).toEqual(names);
    };

    await step(tokenizeDomain(chain, { domainKey: solo, holder: bob, version: 1 }), {
      [bob]: ["solo"],
      [alice]: ["duo"],
    });
    await step(transferDomainNft(chain, { domainKey: solo, from: bob, to: carol, version: 1 }), {
      [carol]: ["solo"],
      [bob]: [],
      [alice]: ["duo"],
    });
    await step(unwrapDomain(chain, { domainKey: solo, to: carol, version: 1 }), {
      [alice]: ["duo"],
      [carol]: ["solo"],
    });
    await step(transferName(chain, { domainKey: solo, from: carol, to: bob, version: 1 }), {
      [alice]: ["duo"],
      [bob]: ["solo"],
      [carol]: [],
    });
    await step(tokenizeDomain(chain, { domainKey: solo, holder: carol, version: 1 }), {
      [alice]: ["duo"],
      [carol]: ["solo"],
      [bob]: [],
    });

    expect(signatures.map((signature) => chain.transactions.get(signature)!.version)).toEqual([1, 1, 1, 1, 1]);
    expect(fallbacks()).toBe(0);
    expect(counts.rebuilds.count).toBe(0);
    if (!onWorkerd) expect(await countedFallbacks()).toBe(before);
    // The three tokenizer transactions (tokenize, redeem, tokenize), each read once by a catch-up.
    expect(counts.transactions.count).toBe(3);
  });

  it("one catch-up over legacy, version 0 and version 1 tokenizer transactions", async () => {
    const before = { transactions: counts.transactions.count, nodeFallbacks: onWorkerd ? 0 : await countedFallbacks() };
    const mixed = [
      unwrapDomain(chain, { domainKey: solo, to: carol, version: "legacy" }),
      tokenizeDomain(chain, { domainKey: solo, holder: bob, version: 0 }),
      unwrapDomain(chain, { domainKey: solo, to: bob, version: 1 }),
      tokenizeDomain(chain, { domainKey: solo, holder: carol, version: 1 }),
    ];
    expect(mixed.map((signature) => chain.transactions.get(signature)!.version)).toEqual(["legacy", 0, 1, 1]);
    // One request after all four: its catch-up reads each of them.
    expect(await domainNames(alice)).toEqual(["duo"]);
    expect(fallbacks()).toBe(0);
    expect(counts.transactions.count - before.transactions).toBe(4);
    expect(await domainNames(carol)).toEqual(["solo"]);
    expect(await domainNames(bob)).toEqual([]);
    expect(fallbacks()).toBe(0);
    expect(counts.rebuilds.count).toBe(0);
    if (!onWorkerd) expect(await countedFallbacks()).toBe(before.nodeFallbacks);
  });
});

/** getProgramAccounts calls one `/domains` request causes, as the localnet counts them. */
async function scansOf(
  target: Stack,
  gatewayUrl: string,
  wallet: string,
): Promise<{ scans: number; domains: string[] }> {
  target.localnet.resetStats();
  const answer = await request(gatewayUrl, `/domains/${wallet}`);
  expect(answer.status).toBe(200);
  const domains = (answer.body as { result: { domain: string }[] }).result.map((d) => d.domain);
  return { scans: target.localnet.stats.methods.getProgramAccounts ?? 0, domains };
}

describeOnWorkerd("the index's Durable Object on Workers", () => {
  it("unbound, the Worker scans the tokenizer per mint: one scan more per request, the same answer", async () => {
    const unbound = await startWorkerdGateway(
      { RPC_URL: stack.localnet.url, LOG_LEVEL: "silent", PORT: "0", HOST: "127.0.0.1" },
      { indexObject: false },
    );
    try {
      const bound = await scansOf(stack, stack.gateway.url, carol);
      const scanned = await scansOf(stack, unbound.url, carol);
      expect(scanned.domains).toEqual(bound.domains);
      expect(bound.domains.length).toBeGreaterThan(0);
      expect(bound.scans).toBe(2);
      expect(scanned.scans).toBe(3);
    } finally {
      await unbound.close();
    }
  });

  it("an index object that cannot build (each fault as on Node) leaves /domains on the scan path, then answers again", async () => {
    const faults: Fault[] = [
      { kind: "jsonrpc-error", method: "getSignaturesForAddress", code: -32601, message: "Method not found" },
      { kind: "jsonrpc-error", params: INDEX_SCAN, code: -32010, message: "excluded from account secondary indexes" },
      { kind: "hang", params: INDEX_SCAN },
    ];
    for (const fault of faults) {
      const worker = await startWorkerdGateway({
        RPC_URL: stack.localnet.url,
        LOG_LEVEL: "silent",
        PORT: "0",
        HOST: "127.0.0.1",
        RPC_TIMEOUT_MS: "1000",
      });
      try {
        stack.localnet.setFault(fault);
        for (const wallet of [alice, bob, carol]) {
          const started = performance.now();
          expect((await request(worker.url, `/domains/${wallet}`)).body).toEqual(
            (await scanning.get(`/domains/${wallet}`)).body,
          );
          expect(performance.now() - started).toBeLessThan(3_000);
        }
        stack.localnet.setFault(null);
        // Retried in the object's background after 1 s, doubling: back to the wallet's two scans.
        await expect
          .poll(async () => (await scansOf(stack, worker.url, carol)).scans, { timeout: 10_000, interval: 250 })
          .toBe(2);
      } finally {
        stack.localnet.setFault(null);
        await worker.close();
      }
    }
  });

  it("keeps its rows and progress across a restart: woken again, it catches up instead of rebuilding", async () => {
    const folder = mkdtempSync(join(tmpdir(), "index-object-"));
    const env = { RPC_URL: stack.localnet.url, LOG_LEVEL: "silent", PORT: "0", HOST: "127.0.0.1" };
    try {
      const first = await startWorkerdGateway(env, { persistTo: folder });
      // The first request waits for the build: the wallet's two scans and the whole-program tokenizer scan.
      expect(await scansOf(stack, first.url, carol)).toMatchObject({ scans: 3 });
      await first.close();
      transferDomainNft(ledger, { domainKey: deriveDomainKey("art"), from: carol, to: alice });
      const again = await startWorkerdGateway(env, { persistTo: folder });
      try {
        const after = await scansOf(stack, again.url, alice);
        expect(after.scans).toBe(2);
        expect(after.domains).toContain("art");
        expect(stack.localnet.stats.methods.getSignaturesForAddress).toBeGreaterThan(0);
        expect((await scansOf(stack, again.url, carol)).domains).not.toContain("art");
        transferDomainNft(ledger, { domainKey: deriveDomainKey("art"), from: alice, to: carol });
        expect((await scansOf(stack, again.url, carol)).domains).toContain("art");
      } finally {
        await again.close();
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
