import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Localnet,
  Ledger,
  type TransactionVersion,
  buildDomainAccounts,
  identity,
  startLocalnet,
  tokenizeDomain,
} from "../../src/localnet/index.js";
import { AnswerShapeGuard, limitsFor } from "../../src/rpc/answer-shape.js";
import { parseTransactionAccounts } from "../../src/rpc/results.js";
import { createTrustedDispatcher } from "../../src/rpc/transport/undici.js";
import { NAME_PROGRAM_ID, NAME_TOKENIZER_ID, TOKEN_PROGRAM_ID } from "../../src/sns/constants.js";
import { deriveDomainKey, deriveNftRecordKey } from "../../src/sns/derive.js";
import { testEndpoint } from "../../testkit/rpc-endpoint.js";

// What the tokenized index reads of a transaction (src/rpc/endpoint.ts getTransactionAccounts): asked for
// every version up to 1, over real HTTP against the localnet, and the shapes results.ts accepts and refuses.

const holder = identity("holder").address;
const art = deriveDomainKey("art");
let localnet: Localnet;
let ledger: Ledger;
const dispatcher = createTrustedDispatcher();

beforeAll(async () => {
  ledger = new Ledger();
  for (const { address, account } of buildDomainAccounts({ name: "art", owner: holder }))
    ledger.setAccount(address, account);
  localnet = await startLocalnet({ ledger });
});
afterAll(async () => {
  await localnet.close();
  await dispatcher.close();
});

const endpoint = () => testEndpoint(localnet.url, dispatcher, { maxQueuedKeys: 100_000 });

describe("getTransactionAccounts", () => {
  it("asks for maxSupportedTransactionVersion 1 and reads legacy, version 0 and version 1 transactions alike", async () => {
    const asked = localnet.watchCalls({ method: "getTransaction", params: '"maxSupportedTransactionVersion":1' });
    const asking = localnet.watchCalls({ method: "getTransaction" });
    const reader = endpoint();
    const versions: TransactionVersion[] = ["legacy", 0, 1];
    for (const version of versions) {
      const signature = tokenizeDomain(ledger, { domainKey: art, holder, version });
      const accounts = await reader.getTransactionAccounts(signature);
      expect(accounts?.slot, String(version)).toBe(ledger.slot);
      expect(accounts?.programs).toEqual(new Set([NAME_TOKENIZER_ID, TOKEN_PROGRAM_ID, NAME_PROGRAM_ID]));
      expect(accounts?.writable).toContain(deriveNftRecordKey(art));
      expect(accounts?.writable).not.toContain(NAME_TOKENIZER_ID);
    }
    expect([asked.count, asking.count]).toEqual([3, 3]);
  });
});

const message = {
  accountKeys: ["A", "B", "P"],
  header: { numRequiredSignatures: 1, numReadonlySignedAccounts: 0, numReadonlyUnsignedAccounts: 1 },
  instructions: [{ programIdIndex: 2, accounts: [0, 1] }],
};
const transactionConfig = {
  computeUnitLimit: 200_000,
  heapSize: null,
  loadedAccountsDataSizeLimit: null,
  priorityFee: 5000,
};
const answer = (
  fields: Record<string, unknown>,
  messageFields: Record<string, unknown> = {},
  meta: Record<string, unknown> = {},
) => ({
  slot: 7,
  meta: { err: null, loadedAddresses: { writable: [], readonly: [] }, innerInstructions: [], ...meta },
  transaction: { signatures: ["S"], message: { ...message, ...messageFields } },
  ...fields,
});

describe("parseTransactionAccounts", () => {
  it("reads every version the gateway asks for: writable keys by the header, loaded ones for version 0", () => {
    const expected = { slot: 7, writable: ["A", "B"], programs: new Set(["P"]) };
    expect(parseTransactionAccounts(answer({}))).toEqual(expected);
    expect(parseTransactionAccounts(answer({ version: "legacy" }))).toEqual(expected);
    expect(parseTransactionAccounts(answer({ version: 1 }, { transactionConfig }))).toEqual(expected);
    expect(
      parseTransactionAccounts(
        answer(
          { version: 1 },
          {
            transactionConfig: {
              computeUnitLimit: null,
              heapSize: null,
              loadedAccountsDataSizeLimit: null,
              priorityFee: null,
            },
          },
        ),
      ),
    ).toEqual(expected);
    expect(
      parseTransactionAccounts(
        answer(
          { version: 0 },
          { addressTableLookups: [{}] },
          { loadedAddresses: { writable: ["L"], readonly: ["R"] } },
        ),
      ),
    ).toEqual({
      ...expected,
      writable: ["A", "B", "L"],
    });
    expect(parseTransactionAccounts(null)).toBeNull();
  });

  it("refuses what no node asked for version 1 at most may answer, as it refuses other faulty shapes", () => {
    const refused = [
      answer({ version: 2 }),
      answer({ version: "1" }),
      answer({ version: null }),
      answer({ version: -1 }),
      answer({ version: 0.5 }),
      // Addresses loaded from lookup tables by a message that has none.
      answer({ version: 1 }, { transactionConfig }, { loadedAddresses: { writable: ["L"], readonly: [] } }),
      answer({ version: "legacy" }, {}, { loadedAddresses: { writable: [], readonly: ["R"] } }),
      answer({ version: 1, slot: 2 ** 53 }, { transactionConfig }),
      answer({ version: 1 }, { accountKeys: "A" }),
      answer({ version: 1 }, { instructions: null }),
      { version: 1 },
    ];
    for (const shape of refused)
      expect(() => parseTransactionAccounts(shape), JSON.stringify(shape)).toThrow(/unexpected RPC result/);
  });

  it("a version 1 answer passes the answer guard sized for getTransaction", () => {
    const limits = limitsFor([{ method: "getTransaction", params: ["S", { maxSupportedTransactionVersion: 1 }] }], {
      bytesPerAccount: 1024,
      maxAnswerBytes: 1 << 24,
    });
    const text = JSON.stringify({ jsonrpc: "2.0", id: 1, result: answer({ version: 1 }, { transactionConfig }) });
    expect(() => new AnswerShapeGuard(limits).feed(Buffer.from(text))).not.toThrow();
  });
});
