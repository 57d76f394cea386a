import { Connection } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Localnet,
  Ledger,
  type TransactionVersion,
  buildDomainAccounts,
  identity,
  loadFixture,
  startLocalnet,
  tokenizeDomain,
  transferName,
} from "../../src/localnet/index.js";
import { NAME_PROGRAM_ID, NAME_TOKENIZER_ID } from "../../src/sns/constants.js";
import { deriveDomainKey } from "../../src/sns/derive.js";
import { call } from "./helpers.js";

// getTransaction as the cluster answers it since version 1 transactions went live: a transaction
// newer than the request's maxSupportedTransactionVersion (absent: legacy only) is refused with
// -32015, never left out; getSignaturesForAddress lists every version.

const alice = identity("alice").address;
const bob = identity("bob").address;
const refusal = (version: number) =>
  `Transaction version (${version}) is not supported by the requesting client. ` +
  `Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": ${version}`;

let localnet: Localnet;
const signatureOf: Partial<Record<string, string>> = {};
const VERSIONS: TransactionVersion[] = ["legacy", 0, 1];

beforeAll(async () => {
  const ledger = new Ledger();
  for (const { address, account } of buildDomainAccounts({ name: "art", owner: alice }))
    ledger.setAccount(address, account);
  for (const version of VERSIONS) {
    signatureOf[String(version)] = ledger.transact({
      feePayer: alice,
      programs: [NAME_TOKENIZER_ID],
      writes: new Map(),
      version,
    }).signature;
  }
  localnet = await startLocalnet({ ledger });
});
afterAll(() => localnet.close());

const getTransaction = (version: TransactionVersion, config: Record<string, unknown>) =>
  call(localnet.url, "getTransaction", [signatureOf[String(version)], { encoding: "json", ...config }]);

describe("getTransaction and maxSupportedTransactionVersion", () => {
  it("answers a transaction up to the maximum asked for, and -32015 with Agave's text above it", async () => {
    // [transaction version, maxSupportedTransactionVersion (undefined: absent)] → version refused, or null when answered.
    const cases: [TransactionVersion, number | undefined, number | null][] = [
      ["legacy", undefined, null],
      ["legacy", 0, null],
      ["legacy", 1, null],
      [0, undefined, 0],
      [0, 0, null],
      [0, 1, null],
      [1, undefined, 1],
      [1, 0, 1],
      [1, 1, null],
    ];
    for (const [version, max, refused] of cases) {
      const answer = await getTransaction(version, max === undefined ? {} : { maxSupportedTransactionVersion: max });
      const what = `version ${version}, max ${max}`;
      if (refused === null) {
        expect(answer.error, what).toBeUndefined();
        expect(answer.result.transaction.signatures, what).toEqual([signatureOf[String(version)]]);
      } else {
        expect(answer.error, what).toEqual({ code: -32015, message: refusal(refused) });
      }
    }
    // null is no parameter, as serde reads an absent option.
    expect((await getTransaction(0, { maxSupportedTransactionVersion: null })).error).toEqual({
      code: -32015,
      message: refusal(0),
    });
  });

  it("says the version only when asked with a maximum; a version 1 message has its transactionConfig and loads no addresses", async () => {
    const legacyUnasked = (await getTransaction("legacy", {})).result;
    expect(legacyUnasked).not.toHaveProperty("version");
    expect(legacyUnasked.meta).not.toHaveProperty("loadedAddresses");

    const answers = await Promise.all(
      VERSIONS.map((version) => getTransaction(version, { maxSupportedTransactionVersion: 1 })),
    );
    expect(answers.map((answer) => answer.result.version)).toEqual(["legacy", 0, 1]);
    for (const { result } of answers) expect(result.meta.loadedAddresses).toEqual({ writable: [], readonly: [] });
    const [legacy, v0, v1] = answers.map((answer) => answer.result.transaction.message);
    expect(legacy).not.toHaveProperty("transactionConfig");
    expect(legacy).not.toHaveProperty("addressTableLookups");
    expect(v0.addressTableLookups).toEqual([]);
    expect(v0).not.toHaveProperty("transactionConfig");
    expect(v1).not.toHaveProperty("addressTableLookups");
    expect(Object.keys(v1.transactionConfig).sort()).toEqual([
      "computeUnitLimit",
      "heapSize",
      "loadedAccountsDataSizeLimit",
      "priorityFee",
    ]);
    for (const value of Object.values(v1.transactionConfig))
      expect(value === null || typeof value === "number").toBe(true);
    // The same accounts, header and instructions in every version.
    for (const message of [legacy, v0, v1]) {
      expect(message.accountKeys).toEqual([alice, NAME_TOKENIZER_ID]);
      expect(message.header).toEqual({
        numRequiredSignatures: 1,
        numReadonlySignedAccounts: 0,
        numReadonlyUnsignedAccounts: 1,
      });
      expect(message.instructions).toHaveLength(1);
    }
    const parsed = await getTransaction(1, { encoding: "jsonParsed", maxSupportedTransactionVersion: 1 });
    expect(parsed.result.transaction.message.transactionConfig).toEqual(v1.transactionConfig);
  });

  it("refuses any other maximum with invalid params, before looking the transaction up", async () => {
    for (const max of [2, 255, 256, -1, 0.5, "1", true, [1]]) {
      const answer = await getTransaction("legacy", { maxSupportedTransactionVersion: max });
      expect(answer.error?.code, JSON.stringify(max)).toBe(-32602);
    }
    expect((await getTransaction("legacy", { maxSupportedTransactionVersion: "1" })).error.message).toBe(
      'Invalid params: invalid type: string "1", expected u8.',
    );
  });

  it("lists every version in getSignaturesForAddress, asked with or without a maximum", async () => {
    for (const config of [{}, { maxSupportedTransactionVersion: 0 }]) {
      const answer = await call(localnet.url, "getSignaturesForAddress", [NAME_TOKENIZER_ID, config]);
      expect(answer.result.map((entry: { signature: string }) => entry.signature)).toEqual(
        [...VERSIONS].reverse().map((version) => signatureOf[String(version)]),
      );
    }
  });

  it("is read by web3.js asking for version 1", async () => {
    const connection = new Connection(localnet.url, "confirmed");
    for (const version of VERSIONS) {
      const tx = await connection.getTransaction(signatureOf[String(version)]!, { maxSupportedTransactionVersion: 1 });
      expect(tx?.version).toBe(version);
    }
    await expect(connection.getTransaction(signatureOf["1"]!, { maxSupportedTransactionVersion: 0 })).rejects.toThrow(
      refusal(1),
    );
  });
});

describe("the version of the ledger's transactions", () => {
  it("is 1 unless chosen, by the action, by the ledger or by the fixture", () => {
    const ledger = new Ledger();
    for (const { address, account } of buildDomainAccounts({ name: "art", owner: alice }))
      ledger.setAccount(address, account);
    const art = deriveDomainKey("art");
    const versionOf = (signature: string) => ledger.transactions.get(signature)!.version;
    expect(versionOf(tokenizeDomain(ledger, { domainKey: art, holder: bob }))).toBe(1);
    expect(versionOf(tokenizeDomain(ledger, { domainKey: art, holder: bob, version: "legacy" }))).toBe("legacy");
    expect(
      new Ledger({ transactionVersion: 0 }).transact({
        feePayer: alice,
        programs: [NAME_PROGRAM_ID],
        writes: new Map(),
      }).version,
    ).toBe(0);
    const fromFixture = loadFixture({ transactionVersion: "legacy", domains: [{ name: "art", owner: "alice" }] });
    expect(
      fromFixture.transactions.get(transferName(fromFixture, { domainKey: art, from: alice, to: bob }))!.version,
    ).toBe("legacy");
    expect(() => loadFixture({ transactionVersion: 2 })).toThrow(/transactionVersion/);
  });

  it("transfers a name only from its registry owner", () => {
    const ledger = loadFixture({ domains: [{ name: "art", owner: "alice" }] });
    expect(() => transferName(ledger, { domainKey: deriveDomainKey("art"), from: bob, to: alice })).toThrow(
      /does not own/,
    );
  });
});
