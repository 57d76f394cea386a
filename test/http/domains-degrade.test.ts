import { sha256 } from "@noble/hashes/sha2.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import {
  type Fault,
  Ledger,
  type Localnet,
  buildDomainAccounts,
  encodeNftRecord,
  identity,
  startLocalnet,
  tokenizeDomain,
  unwrapDomain,
} from "../../src/localnet/index.js";
import { type RunningGateway, startGateway } from "../../src/platform/node/gateway.js";
import { bytesToAddress, utf8 } from "../../src/sns/bytes.js";
import { NAME_TOKENIZER_ID } from "../../src/sns/constants.js";
import { deriveDomainKey } from "../../src/sns/derive.js";
import { type LogCapture, captureLog } from "../../testkit/log-capture.js";
import { sampleValue } from "../../testkit/prometheus.js";
import { startSlotLiar } from "../../testkit/slot-liar.js";
import { request } from "../../testkit/stack.js";

// `/domains` on RPC servers that misbehave for the tokenized index: the
// index is an optimisation, so every request still gets the answer of the
// scan path (checked against a gateway without the index), the fallback is
// counted in /metrics and logged once per change of state, and the index
// comes back once the RPC does.

const alice = identity("alice").address;
const bob = identity("bob").address;
const carol = identity("carol").address;
const art = deriveDomainKey("art");
const music = deriveDomainKey("music");

/** The index's whole-program scan (its 96-byte slice), told apart from the per-mint scans and the wallet's. */
const INDEX_SCAN = '"dataSlice":{"offset":2,"length":96}';

let ledger: Ledger;
let localnet: Localnet;
let scanning: RunningGateway;
const running: RunningGateway[] = [];

beforeAll(async () => {
  ledger = new Ledger();
  for (const name of ["art", "music"]) {
    for (const { address, account } of buildDomainAccounts({ name, owner: alice })) ledger.setAccount(address, account);
  }
  tokenizeDomain(ledger, { domainKey: art, holder: bob });
  localnet = await startLocalnet({ ledger });
  scanning = await startGateway(
    loadConfig({ RPC_URL: localnet.url, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "silent", TOKENIZED_INDEX: "off" }),
  );
});
afterAll(async () => {
  await Promise.all([scanning, ...running].map((gateway) => gateway.close()));
  await localnet.close();
});

interface Subject {
  readonly gateway: RunningGateway;
  readonly log: LogCapture;
}

async function gatewayWith(env: Record<string, string> = {}): Promise<Subject> {
  const log = captureLog();
  const config = loadConfig({ RPC_URL: localnet.url, PORT: "0", HOST: "127.0.0.1", RPC_TIMEOUT_MS: "1000", ...env });
  const gateway = await startGateway(config, log.logger);
  running.push(gateway);
  return { gateway, log };
}

async function domains(gateway: RunningGateway, wallet: string): Promise<unknown> {
  const answer = await request(gateway.url, `/domains/${wallet}`);
  expect(answer.status).toBe(200);
  return answer.body;
}

/** The gateway answers as the scan path does, for every wallet. */
async function expectScanAnswers(subject: Subject): Promise<void> {
  for (const wallet of [alice, bob, carol])
    expect(await domains(subject.gateway, wallet)).toEqual(await domains(scanning, wallet));
}

const metrics = async (subject: Subject) => (await request(subject.gateway.url, "/metrics")).text;
const fallbacks = async (subject: Subject, reason: string) =>
  sampleValue(await metrics(subject), "sns_gateway_tokenized_index_fallbacks_total", { reason });
const indexState = async (subject: Subject, state: string) =>
  sampleValue(await metrics(subject), "sns_gateway_tokenized_index_state", { state });
const unavailableLines = (subject: Subject) =>
  subject.log.lines().filter((line) => line.msg?.toString().startsWith("tokenized index unavailable"));

/** Under `fault`, every answer is the scan path's; the failure is counted and logged once; cleared, the index is back. */
async function degradesAndRecovers(fault: Fault): Promise<void> {
  const subject = await gatewayWith();
  localnet.setFault(fault);
  try {
    await expectScanAnswers(subject);
    // Requests never wait for the build past half their deadline; once it has failed, they scan at once.
    await expect.poll(() => indexState(subject, "failed"), { timeout: 10_000, interval: 100 }).toBe(1);
    await expectScanAnswers(subject);
    expect(await fallbacks(subject, "failed")).toBeGreaterThanOrEqual(1);
    expect(unavailableLines(subject)).toHaveLength(1);
    expect(subject.log.text()).not.toContain(localnet.url);
  } finally {
    localnet.setFault(null);
  }
  // Retried in the background with a growing pause: back within a few seconds, answering from the index.
  await expect.poll(() => indexState(subject, "ready"), { timeout: 10_000, interval: 200 }).toBe(1);
  await expectScanAnswers(subject);
  expect(subject.log.lines().some((line) => line.msg === "tokenized index ready again")).toBe(true);
}

describe("/domains answers from the scan path when the index cannot be built or kept fresh", () => {
  it("an RPC without getSignaturesForAddress (-32601)", async () => {
    await degradesAndRecovers({
      kind: "jsonrpc-error",
      method: "getSignaturesForAddress",
      code: -32601,
      message: "Method not found",
    });
  });

  it("an RPC without transaction history (-32011)", async () => {
    await degradesAndRecovers({
      kind: "jsonrpc-error",
      method: "getSignaturesForAddress",
      code: -32011,
      message: "Transaction history is not available from this node",
    });
  });

  it("an RPC that refuses the tokenizer scan (-32010)", async () => {
    await degradesAndRecovers({
      kind: "jsonrpc-error",
      params: INDEX_SCAN,
      code: -32010,
      message: `${NAME_TOKENIZER_ID} excluded from account secondary indexes; this RPC method unavailable for key`,
    });
  });

  it("an RPC that answers HTTP 413 to the tokenizer scan and to its partitions", async () => {
    await degradesAndRecovers({ kind: "http-status", params: INDEX_SCAN, status: 413 });
  });

  it("an RPC that never answers the tokenizer scan", async () => {
    await degradesAndRecovers({ kind: "hang", params: INDEX_SCAN });
  });

  it("an RPC without getTransaction, after the first tokenizer transaction", async () => {
    const subject = await gatewayWith();
    await expectScanAnswers(subject);
    expect(await indexState(subject, "ready")).toBe(1);
    localnet.setFault({ kind: "jsonrpc-error", method: "getTransaction", code: -32601, message: "Method not found" });
    try {
      // A tokenizer transaction: catching up needs it.
      tokenizeDomain(ledger, { domainKey: music, holder: carol });
      await expectScanAnswers(subject);
      expect(await domains(subject.gateway, carol)).toMatchObject({ result: [{ domain: "music" }] });
      expect(await fallbacks(subject, "failed")).toBeGreaterThanOrEqual(1);
      expect(unavailableLines(subject)).toHaveLength(1);
    } finally {
      localnet.setFault(null);
      unwrapDomain(ledger, { domainKey: music, to: alice });
    }
    await expect.poll(() => indexState(subject, "ready"), { timeout: 10_000, interval: 200 }).toBe(1);
    await expectScanAnswers(subject);
  });

  it("a bogus slot in a context (2^53−1) or on a signature (1e300) is a fault, never state", async () => {
    // In the context of the index's first scan: the build fails, requests scan.
    await degradesAndRecovers({
      kind: "malformed-result",
      params: INDEX_SCAN,
      result: { context: { slot: 2 ** 53 - 1 }, value: [] },
    });
    // On a signature read while catching up with a new tokenizer transaction.
    const subject = await gatewayWith();
    await expectScanAnswers(subject);
    tokenizeDomain(ledger, { domainKey: music, holder: carol });
    localnet.setFault({
      kind: "malformed-result",
      method: "getSignaturesForAddress",
      result: [{ signature: "1".repeat(64), slot: 1e300, err: null }],
    });
    try {
      await expectScanAnswers(subject);
      expect(await fallbacks(subject, "failed")).toBeGreaterThanOrEqual(1);
    } finally {
      localnet.setFault(null);
    }
    // Not frozen at that slot: back, and following the chain.
    await expect.poll(() => indexState(subject, "ready"), { timeout: 10_000, interval: 200 }).toBe(1);
    unwrapDomain(ledger, { domainKey: music, to: alice });
    await expectScanAnswers(subject);
    expect(await domains(subject.gateway, carol)).toEqual({ s: "ok", result: [] });
    expect(await indexState(subject, "ready")).toBe(1);
  });
});

describe("the index has a memory budget", () => {
  it("past it, /domains scans, counted and logged once, and nothing is kept", async () => {
    // 1 MiB holds 16,384 records: 17,000 inactive-looking active records do not fit.
    const big = new Ledger();
    for (const { address, account } of buildDomainAccounts({ name: "art", owner: alice }))
      big.setAccount(address, account);
    tokenizeDomain(big, { domainKey: art, holder: bob });
    const key = (label: string, i: number) => bytesToAddress(sha256(utf8.encode(`budget:${label}:${i}`)));
    for (let i = 0; i < 17_000; i++) {
      const nameAccount = key("name", i);
      big.setAccount(key("record", i), {
        owner: NAME_TOKENIZER_ID,
        data: encodeNftRecord({ tag: 2, nonce: 255, nameAccount, owner: nameAccount, nftMint: key("mint", i) }),
      });
    }
    const bignet = await startLocalnet({ ledger: big });
    try {
      const log = captureLog();
      const gateway = await startGateway(
        loadConfig({ RPC_URL: bignet.url, PORT: "0", HOST: "127.0.0.1", TOKENIZED_INDEX_MAX_MB: "1" }),
        log.logger,
      );
      running.push(gateway);
      const subject = { gateway, log };
      for (let i = 0; i < 3; i++)
        expect(await domains(gateway, bob)).toEqual({ s: "ok", result: [{ domain: "art", key: art }] });
      await expect.poll(() => indexState(subject, "over_budget"), { timeout: 10_000, interval: 200 }).toBe(1);
      expect(await domains(gateway, bob)).toEqual({ s: "ok", result: [{ domain: "art", key: art }] });
      expect(await fallbacks(subject, "over_budget")).toBeGreaterThanOrEqual(1);
      expect(unavailableLines(subject)).toHaveLength(1);
      expect(unavailableLines(subject)[0]).toMatchObject({ state: "over_budget" });
    } finally {
      await bignet.close();
    }
  });
});

describe("a floor no endpoint reaches", () => {
  it("is dropped after TOKENIZED_INDEX_FLOOR_GIVE_UP_MS to the slot the endpoint has, logged once and counted", async () => {
    // The index is built from answers a million slots ahead, then the endpoint tells the truth.
    const liar = await startSlotLiar(localnet.url, 1_000_000);
    try {
      const subject = await gatewayWith({ RPC_URL: liar.url, TOKENIZED_INDEX_FLOOR_GIVE_UP_MS: "500" });
      expect(await domains(subject.gateway, bob)).toEqual({ s: "ok", result: [{ domain: "art", key: art }] });
      liar.lead = 0;
      const refused = await request(subject.gateway.url, `/domains/${bob}`);
      expect(refused.status).toBe(502);
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(await domains(subject.gateway, bob)).toEqual({ s: "ok", result: [{ domain: "art", key: art }] });
      const dropped = subject.log
        .lines()
        .filter((line) => line.msg?.toString().startsWith("tokenized index floor dropped"));
      expect(dropped).toHaveLength(1);
      expect(dropped[0]).toMatchObject({
        floor: ledger.slotAt("confirmed") + 1_000_000,
        to: ledger.slotAt("confirmed"),
      });
      const metrics = (await request(subject.gateway.url, "/metrics")).text;
      expect(sampleValue(metrics, "sns_gateway_tokenized_index_slot_events_total", { event: "floor_dropped" })).toBe(1);
    } finally {
      await liar.close();
    }
  });
});
