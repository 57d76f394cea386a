import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NAME_PROGRAM_ID } from "../../src/sns/constants.js";
import { deriveDomainKey } from "../../src/sns/derive.js";
import { type Localnet, identity } from "../../src/localnet/index.js";
import { call, post, startDemoLocalnet } from "./helpers.js";

let localnet: Localnet;
beforeAll(async () => {
  localnet = await startDemoLocalnet();
});
afterAll(() => localnet.close());

const BONFIDA = deriveDomainKey("bonfida");
const bonfidaData = () => Buffer.from(localnet.ledger.getAccount(BONFIDA)!.data);

describe("envelopes", () => {
  it("wraps account reads in context and writes rentEpoch as the exact u64::MAX", async () => {
    const response = await post(localnet.url, {
      jsonrpc: "2.0",
      id: "a",
      method: "getAccountInfo",
      params: [BONFIDA, { encoding: "base64" }],
    });
    expect(response.status).toBe(200);
    expect(response.contentType).toMatch(/^application\/json/);
    expect(response.text).toMatch(/^\{"jsonrpc":"2.0","result":\{"context":\{"apiVersion":"[\d.]+","slot":300000000\}/);
    expect(response.text).toContain('"rentEpoch":18446744073709551615,');
    expect(response.text).toMatch(/"id":"a"\}$/);
    expect(response.json().result.value).toMatchObject({
      data: [bonfidaData().toString("base64"), "base64"],
      executable: false,
      owner: NAME_PROGRAM_ID,
      space: 1096,
    });
  });

  it("answers batches with arrays, echoing ids, and skips notifications", async () => {
    const response = await post(localnet.url, [
      { jsonrpc: "2.0", id: 7, method: "getSlot" },
      { jsonrpc: "2.0", method: "getSlot" },
      { jsonrpc: "2.0", id: "x", method: "nope" },
      { jsonrpc: "2.0", id: null, method: "getHealth" },
      42,
    ]);
    expect(response.json()).toEqual([
      { jsonrpc: "2.0", result: 300_000_000, id: 7 },
      { jsonrpc: "2.0", error: { code: -32601, message: "Method not found" }, id: "x" },
      { jsonrpc: "2.0", result: "ok", id: null },
      { jsonrpc: "2.0", error: { code: -32600, message: "Invalid request" }, id: null },
    ]);
    const onlyNotifications = await post(localnet.url, [{ jsonrpc: "2.0", method: "getSlot" }]);
    expect(onlyNotifications.text).toBe("");
  });

  it("reports parse errors and invalid requests", async () => {
    expect((await post(localnet.url, "{not json")).json()).toEqual({
      jsonrpc: "2.0",
      error: { code: -32700, message: "Parse error" },
      id: null,
    });
    for (const body of [[], "42", { jsonrpc: "1.0", id: 1, method: "getSlot" }, { id: 1 }]) {
      expect((await post(localnet.url, body)).json()).toMatchObject({ error: { code: -32600 }, id: null });
    }
  });

  it("serves GET /health and refuses other methods and content types like Agave", async () => {
    const health = await fetch(`${localnet.url}/health`);
    expect([health.status, await health.text()]).toEqual([200, "ok"]);
    expect((await fetch(localnet.url)).status).toBe(405);
    expect((await post(localnet.url, { jsonrpc: "2.0", id: 1, method: "getSlot" }, "text/plain")).status).toBe(415);
  });
});

describe("method errors", () => {
  it("rejects invalid public keys with Agave's messages", async () => {
    expect((await call(localnet.url, "getAccountInfo", ["not-a-key"])).error).toEqual({
      code: -32602,
      message: "Invalid param: Invalid",
    });
    expect((await call(localnet.url, "getAccountInfo", ["1".repeat(45)])).error).toEqual({
      code: -32602,
      message: "Invalid param: WrongSize",
    });
    expect((await call(localnet.url, "getAccountInfo", ["1111"])).error.message).toBe("Invalid param: WrongSize");
    expect((await call(localnet.url, "getAccountInfo", [])).error.code).toBe(-32602);
  });

  it("caps getMultipleAccounts at 100 keys", async () => {
    const keys = (n: number) => Array.from({ length: n }, (_, i) => identity(`k${i}`).address);
    const ok = await call(localnet.url, "getMultipleAccounts", [keys(100), { encoding: "base64" }]);
    expect(ok.result.value).toHaveLength(100);
    expect((await call(localnet.url, "getMultipleAccounts", [keys(101)])).error).toEqual({
      code: -32602,
      message: "Too many inputs provided; max 100",
    });
  });

  it("getTokenLargestAccounts distinguishes missing accounts from non-mints", async () => {
    expect((await call(localnet.url, "getTokenLargestAccounts", [identity("nobody").address])).error).toEqual({
      code: -32602,
      message: "Invalid param: could not find account",
    });
    expect((await call(localnet.url, "getTokenLargestAccounts", [BONFIDA])).error).toEqual({
      code: -32602,
      message: "Invalid param: not a Token mint",
    });
  });

  it("enforces minContextSlot with -32016", async () => {
    const early = await call(localnet.url, "getSlot", [{ minContextSlot: 300_000_000 }]);
    expect(early.result).toBe(300_000_000);
    const late = await call(localnet.url, "getAccountInfo", [BONFIDA, { minContextSlot: 300_000_001 }]);
    expect(late.error).toEqual({
      code: -32016,
      message: "Minimum context slot has not been reached",
      data: { contextSlot: 300_000_000 },
    });
  });

  it("refuses a minContextSlot it has not reached on every read the tokenized index asks with one", async () => {
    const refusal = {
      code: -32016,
      message: "Minimum context slot has not been reached",
      data: { contextSlot: 300_000_000 },
    };
    const ahead = { minContextSlot: 300_000_001 };
    const reads: [string, unknown[]][] = [
      ["getProgramAccounts", [NAME_PROGRAM_ID, { ...ahead, withContext: true, encoding: "base64" }]],
      ["getSignaturesForAddress", [NAME_PROGRAM_ID, { ...ahead, limit: 1 }]],
      ["getMultipleAccounts", [[BONFIDA], { ...ahead, encoding: "base64" }]],
    ];
    for (const [method, params] of reads) expect((await call(localnet.url, method, params)).error).toEqual(refusal);
  });

  it("validates commitment and encoding names", async () => {
    expect((await call(localnet.url, "getSlot", [{ commitment: "sometime" }])).error.code).toBe(-32602);
    for (const encoding of ["hex", "base64+zstd"]) {
      expect((await call(localnet.url, "getAccountInfo", [BONFIDA, { encoding }])).error.code).toBe(-32602);
    }
  });
});

describe("encodings and data slices", () => {
  const info = async (config: object) => (await call(localnet.url, "getAccountInfo", [BONFIDA, config])).result?.value;

  it("slices data before encoding, keeping space as the full length", async () => {
    const value = await info({ encoding: "base64", dataSlice: { offset: 32, length: 32 } });
    expect(Buffer.from(value.data[0], "base64")).toEqual(bonfidaData().subarray(32, 64));
    expect(value.space).toBe(1096);
    const pastEnd = await info({ encoding: "base64", dataSlice: { offset: 5000, length: 10 } });
    expect(pastEnd.data).toEqual(["", "base64"]);
  });

  it("refuses base58 beyond 128 bytes but serves small slices", async () => {
    const tooBig = await call(localnet.url, "getAccountInfo", [BONFIDA, { encoding: "base58" }]);
    expect(tooBig.error.code).toBe(-32600);
    expect(tooBig.error.message).toMatch(/base 58.*less than 128 bytes/);
    const small = await info({ encoding: "base58", dataSlice: { offset: 32, length: 32 } });
    expect(small.data).toEqual([identity("alice").address, "base58"]);
    const legacy = await info({ dataSlice: { offset: 32, length: 32 } });
    expect(legacy.data).toBe(identity("alice").address);
  });

  it("jsonParsed falls back to base64 and refuses slices", async () => {
    expect((await info({ encoding: "jsonParsed" })).data[1]).toBe("base64");
    const sliced = await call(localnet.url, "getAccountInfo", [
      BONFIDA,
      { encoding: "jsonParsed", dataSlice: { offset: 0, length: 1 } },
    ]);
    expect(sliced.error.code).toBe(-32600);
  });
});

describe("getProgramAccounts", () => {
  it("returns a bare array unless withContext, and caps filters at 4", async () => {
    const filters = [{ memcmp: { offset: 0, bytes: BONFIDA } }, { dataSize: 96 + 1000 }];
    const bare = await call(localnet.url, "getProgramAccounts", [
      NAME_PROGRAM_ID,
      { encoding: "base64", filters, dataSlice: { offset: 0, length: 0 } },
    ]);
    expect(bare.result).toEqual([
      { pubkey: deriveDomainKey("dex.bonfida"), account: expect.objectContaining({ data: ["", "base64"] }) },
    ]);
    const withContext = await call(localnet.url, "getProgramAccounts", [
      NAME_PROGRAM_ID,
      { encoding: "base64", filters, withContext: true },
    ]);
    expect(withContext.result.context.slot).toBe(300_000_000);
    const tooMany = await call(localnet.url, "getProgramAccounts", [
      NAME_PROGRAM_ID,
      { filters: [...filters, ...filters, ...filters] },
    ]);
    expect(tooMany.error).toEqual({ code: -32602, message: "Too many filters provided; max 4" });
  });
});
