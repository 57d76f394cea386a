import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hash } from "node:crypto";
import {
  Ledger,
  type Localnet,
  buildDomainAccounts,
  encodeNftRecord,
  identity,
  startLocalnet,
  tokenizeDomain,
} from "../../src/localnet/index.js";
import { bytesToAddress } from "../../src/sns/bytes.js";
import { NAME_TOKENIZER_ID, NFT_RECORD_LEN } from "../../src/sns/constants.js";
import { NftRecordTag } from "../../src/sns/layouts/nft-record.js";
import { deriveDomainKey } from "../../src/sns/derive.js";
import { type ChildGateway, startChildGateway } from "../../testkit/child-gateway.js";
import { NPM_START } from "../../testkit/npm-start.js";
import { rssStatement } from "../../testkit/rss-statement.js";

/**
 * The tokenized index at its full budget (TOKENIZED_INDEX_MAX_MB, default 32: 64 bytes a record)
 * in the gateway as `npm start` runs it, in a child process whose RSS is read from the kernel: the
 * index's rows are typed arrays outside the V8 heap, on top of what the heap caps bound.
 * docs/performance.md, Memory, states what this measures. Node only: it is about the Node process.
 */
/** Records just under the default budget (32 MiB / 64 B = 524,288, the changes since the build counted too). */
const RECORDS = 520_000;
/**
 * docs/performance.md, Memory: a gateway building and then holding an index at its full budget stays under
 * 230 MB (measured on Node 20.20 over three runs: peaks 191.1–192.0 MB, 170.4–172.9 MB after; 206–215 MB in
 * an earlier measurement).
 */
const RSS_BUDGET = rssStatement(230);
const MB = 1024 * 1024;
const READY = 'sns_gateway_tokenized_index_state{state="ready"} 1';

/** A distinct key per label and index: the SHA-256 of `label:i` (Node's native one: 1.5 million of them). */
const keyBytes = (label: string, i: number): Uint8Array => hash("sha256", `${label}:${i}`, "buffer");
const holder = identity("collector").address;

/**
 * An active NFT record of name account `name` (its own owner) and mint `mint`, the bytes encodeNftRecord
 * writes for them: written from the keys' bytes, as a round trip through base58 text per key (1.5 million
 * of them at about 10 µs each) changes no byte.
 */
function activeRecord(name: Uint8Array, mint: Uint8Array): Uint8Array {
  const data = new Uint8Array(NFT_RECORD_LEN);
  data[0] = NftRecordTag.ActiveRecord;
  data[1] = 255;
  data.set(name, 2);
  data.set(name, 34);
  data.set(mint, 66);
  return data;
}

let localnet: Localnet;
let gateway: ChildGateway;

beforeAll(async () => {
  // The first record as encodeNftRecord writes it from base58 keys: the fast path writes the same bytes.
  const name0 = bytesToAddress(keyBytes("name", 0));
  const mint0 = bytesToAddress(keyBytes("mint", 0));
  expect(activeRecord(keyBytes("name", 0), keyBytes("mint", 0))).toEqual(
    encodeNftRecord({ tag: 2, nonce: 255, nameAccount: name0, owner: name0, nftMint: mint0 }),
  );
  const ledger = new Ledger();
  for (let i = 0; i < RECORDS; i++) {
    ledger.setAccount(bytesToAddress(keyBytes("record", i)), {
      owner: NAME_TOKENIZER_ID,
      data: activeRecord(keyBytes("name", i), keyBytes("mint", i)),
    });
  }
  for (const { address, account } of buildDomainAccounts({ name: "gallery", owner: holder }))
    ledger.setAccount(address, account);
  tokenizeDomain(ledger, { domainKey: deriveDomainKey("gallery"), holder });
  localnet = await startLocalnet({ ledger });
  gateway = await startChildGateway({ RPC_URL: localnet.url });
}, 300_000);

afterAll(async () => {
  await gateway?.stop();
  await localnet?.close();
});

describe(`the tokenized index at its full budget (${RECORDS.toLocaleString("en")} records)`, () => {
  it(`keeps the gateway's RSS under ${RSS_BUDGET / MB} MB once built`, async () => {
    const rows = [
      `node ${process.version} ${NPM_START.nodeFlags.join(" ")}`,
      `idle: RSS ${(gateway.rss() / MB).toFixed(1)} MB`,
    ];
    const started = performance.now();
    // Starts the build; the answer is the scan path's while the build runs (or 502 when the localnet,
    // serving the build's scans in this process, is too busy to answer it in time).
    const first = await fetch(`${gateway.url}/domains/${holder}`).catch((error: unknown) => {
      throw new Error(`no answer (exit ${gateway.process.exitCode}): ${gateway.output().slice(-2000)}`, {
        cause: error,
      });
    });
    rows.push(`first /domains: ${first.status}`);
    // A poll may find the connection closed while the build holds the gateway busy: it polls again.
    const metrics = () =>
      fetch(`${gateway.url}/metrics`).then(
        (answer) => answer.text(),
        () => "",
      );
    while (!(await metrics()).includes(READY)) {
      expect(gateway.process.exitCode).toBeNull();
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    rows.push(
      `built (${((performance.now() - started) / 1000).toFixed(1)} s): RSS ${(gateway.rss() / MB).toFixed(1)} MB, peak ${(gateway.peakRss() / MB).toFixed(1)} MB`,
    );
    const answer = (await (await fetch(`${gateway.url}/domains/${holder}`)).json()) as { result: unknown[] };
    expect(answer.result).toHaveLength(1);
    // The collector may shrink what the build left: measured after a few seconds of idling.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    rows.push(`after: RSS ${(gateway.rss() / MB).toFixed(1)} MB, peak ${(gateway.peakRss() / MB).toFixed(1)} MB`);
    console.log(`tokenized index at its budget, child gateway:\n  ${rows.join("\n  ")}`);
    expect(gateway.peakRss()).toBeLessThan(RSS_BUDGET);
  }, 600_000);
});
