import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Ledger, buildDomainAccounts, identity } from "../../src/localnet/index.js";
import { addressToBytes, utf8 } from "../../src/sns/bytes.js";
import { GUARDIAN_KEY, NAME_PROGRAM_ID } from "../../src/sns/constants.js";
import { deriveDomainKey, deriveRecordV2Key } from "../../src/sns/derive.js";
import { type RecordV2AccountFields, encodeRecordV2Account } from "../../src/sns/layouts/record-v2.js";
import { RECORD_TYPES, RecordTypeByName } from "../../src/sns/record-types.js";
import { Validation } from "../../src/sns/layouts/record-v2.js";
import {
  type Answer,
  type Stack,
  type TestGateway,
  request,
  startStack,
  startTestGateway,
} from "../../testkit/stack.js";

const alice = identity("alice");
const bob = identity("bob");
const carol = identity("carol");

const CACHEABLE = "public, max-age=10, stale-while-revalidate=180, stale-if-error=0";
const ipv6 = (...groups: number[]): Uint8Array => Uint8Array.from(groups.flatMap((g) => [g >> 8, g & 0xff]));
const base64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString("base64");

/** A record freshly signed for staleness by `signer` (the owner at signing time), no RoA. */
const fresh = (signer: Uint8Array, content: Uint8Array): RecordV2AccountFields => ({
  stalenessValidation: Validation.Solana,
  stalenessId: signer,
  content,
});

function addDomain(ledger: Ledger, spec: Parameters<typeof buildDomainAccounts>[0]): void {
  for (const { address, account } of buildDomainAccounts(spec)) ledger.setAccount(address, account);
}

function addRecord(ledger: Ledger, name: string, type: string, fields: RecordV2AccountFields | Uint8Array): void {
  const domainKey = deriveDomainKey(name);
  const data =
    fields instanceof Uint8Array
      ? fields
      : encodeRecordV2Account({ parent: addressToBytes(domainKey), owner: alice.publicKey, ...fields });
  ledger.setAccount(deriveRecordV2Key(domainKey, type), { owner: NAME_PROGRAM_ID, data });
}

// Accounts the tests below read back, by (domain, type).
const SOL_RECORD = fresh(alice.publicKey, bob.publicKey);
const SOL_FIELDS = { ...SOL_RECORD, rightOfAssociationValidation: Validation.Solana, roaId: bob.publicKey };
const URL_FIELDS = {
  ...fresh(alice.publicKey, utf8.encode("https://alice.example")),
  rightOfAssociationValidation: Validation.Solana,
  roaId: addressToBytes(GUARDIAN_KEY),
};
const EMAIL_FIELDS: RecordV2AccountFields = { content: utf8.encode("alice@example.com") };
const BACKGROUND_FIELDS = fresh(alice.publicKey, new Uint8Array(32).fill(7));
const AAAA_TIE = ipv6(0, 0, 1, 0, 0, 1, 1, 1);
const BAD_PUNYCODE = utf8.encode("\u00e9-");

function buildLedger(): Ledger {
  const ledger = new Ledger();
  addDomain(ledger, { name: "plain", owner: "alice" });
  addRecord(ledger, "plain", "SOL", SOL_FIELDS);
  addRecord(ledger, "plain", "url", URL_FIELDS);
  addRecord(ledger, "plain", "email", EMAIL_FIELDS);
  addRecord(ledger, "plain", "background", BACKGROUND_FIELDS);
  addRecord(ledger, "plain", "AAAA", fresh(alice.publicKey, AAAA_TIE));
  addRecord(ledger, "plain", "A", fresh(alice.publicKey, Uint8Array.of(192, 0, 2, 1)));
  addRecord(ledger, "plain", "CNAME", fresh(alice.publicKey, BAD_PUNYCODE));
  addRecord(ledger, "plain", "ETH", {
    content: new Uint8Array(20).fill(0xab),
    rightOfAssociationValidation: Validation.Ethereum,
    roaId: new Uint8Array(20).fill(0xab),
  });
  // A V2 header cut short: nothing truthful can be said about it.
  addRecord(ledger, "plain", "TXT", new Uint8Array(100));

  addDomain(ledger, { name: "sub.plain", owner: "bob" });
  addRecord(ledger, "sub.plain", "github", fresh(bob.publicKey, utf8.encode("bob")));

  // Tokenized: carol holds the NFT while alice is still the registry owner.
  for (const [name, tokenized] of [
    ["tok", { holder: "carol" }],
    ["inactive", { holder: "carol", state: "inactive" }],
    ["burned", { holder: null }],
    ["unminted", { holder: "carol", mint: false }],
  ] as const) {
    addDomain(ledger, { name, owner: "alice", tokenized });
    addRecord(ledger, name, "discord", fresh(alice.publicKey, utf8.encode("registry-owner-signed")));
    addRecord(ledger, name, "twitter", fresh(carol.publicKey, utf8.encode("holder-signed")));
  }

  // A record whose domain does not exist (the name was never registered).
  addRecord(ledger, "ghost", "SOL", SOL_FIELDS);
  return ledger;
}

let stack: Stack;
let noRpc: TestGateway;
let privateOverride: TestGateway;

beforeAll(async () => {
  stack = await startStack(buildLedger());
  noRpc = await startTestGateway({ RPC_URL: "" });
  privateOverride = await startTestGateway({
    RPC_URL: stack.localnet.url,
    ALLOW_PRIVATE_RPC_OVERRIDE: "true",
    CACHE_TTL_SECONDS: "120",
  });
});

afterAll(async () => {
  await Promise.all([noRpc?.close(), privateOverride?.close()]);
  await stack?.close();
});

beforeEach(() => {
  stack.localnet.setFault(null);
  stack.localnet.resetStats();
});

function expectOk(answer: Answer): unknown {
  expect(answer.status, answer.text).toBe(200);
  expect(answer.body).toMatchObject({ s: "ok" });
  return (answer.body as { result: unknown }).result;
}

function expectError(answer: Answer, status: number, message: string): void {
  expect({ status: answer.status, body: answer.body }).toEqual({ status, body: { s: "error", result: message } });
  expect(answer.headers.get("cache-control")).toBe("no-store");
}

const recordJson = (
  fields: { deserialized?: string; stale: boolean; roa?: boolean },
  account: RecordV2AccountFields,
) => {
  const data = encodeRecordV2Account(account).subarray(104);
  return {
    ...fields,
    record: {
      header: {
        stalenessValidation: account.stalenessValidation ?? 0,
        rightOfAssociationValidation: account.rightOfAssociationValidation ?? 0,
        contentLength: account.contentLength ?? account.content.length,
      },
      data: base64(data),
    },
  };
};

describe("GET /types/record", () => {
  it("is the 28-member enum object, member → value, with no RPC", async () => {
    const answer = await stack.get("/types/record");
    const result = expectOk(answer) as Record<string, string>;
    expect(result).toEqual(RecordTypeByName);
    expect(Object.keys(result)).toEqual(Object.keys(RecordTypeByName));
    expect(Object.keys(result)).toHaveLength(28);
    expect(result).toMatchObject({ Email: "email", Injective: "INJ", Background: "background" });
    expect(answer.headers.get("cache-control")).toBe(CACHEABLE);
    expect(stack.localnet.stats.httpRequests).toBe(0);
  });

  it("works without any RPC configured", async () => {
    expect(expectOk(await request(noRpc.url, "/types/record"))).toEqual(RecordTypeByName);
  });
});

describe("GET /record-key-v2/:domain/:record", () => {
  it.each([
    ["bonfida", "SOL", "ETARvCjLwjyM6Jux1ndxuXuYEYy56Nf5uvU3abL1WyW6"],
    ["dex.bonfida", "SOL", "FmgzeC1ZgudCU2zYwoXmcs2Q141eqjqqD9RJnwMDkVEL"],
    ["bonfida", "url", "EyXTEBK3xFkzkweB5PNR1zNjYchpyYyizunbdpcCEHVy"],
    ["wallet-guide-9", "ETH", "E4MZzSfkf59UVFYVux5WEufghvWxUktf6e5EaUuDExAc"],
    // Trimmed and lowercased before deriving, as upstream.
    ["%20BonFida%20", "SOL", "ETARvCjLwjyM6Jux1ndxuXuYEYy56Nf5uvU3abL1WyW6"],
  ])("%s / %s → %s", async (domain, record, key) => {
    const answer = await stack.get(`/record-key-v2/${domain}/${record}`);
    expect(expectOk(answer)).toBe(key);
    expect(answer.headers.get("cache-control")).toBe(CACHEABLE);
  });

  it("makes no RPC call, and needs no RPC endpoint", async () => {
    for (const type of RECORD_TYPES) {
      expectOk(await stack.get(`/record-key-v2/plain/${type}`));
    }
    expect(stack.localnet.stats.httpRequests).toBe(0);
    const answer = await request(noRpc.url, "/record-key-v2/bonfida/SOL");
    expect(expectOk(answer)).toBe("ETARvCjLwjyM6Jux1ndxuXuYEYy56Nf5uvU3abL1WyW6");
  });

  it("does not validate an rpc parameter it never uses, and is then not shared-cacheable", async () => {
    const answer = await stack.get("/record-key-v2/bonfida/SOL?rpc=https://127.0.0.1");
    expectOk(answer);
    expect(answer.headers.get("cache-control")).toBe("no-store");
  });
});

describe("GET /record-v2/:domain/:record", () => {
  it("returns a verified, decoded record in upstream's shape", async () => {
    const answer = await stack.get("/record-v2/plain/SOL");
    expect(expectOk(answer)).toEqual(recordJson({ deserialized: bob.address, stale: false, roa: true }, SOL_FIELDS));
    expect(Object.keys(expectOk(answer) as object)).toEqual(["deserialized", "stale", "roa", "record"]);
    expect(answer.headers.get("cache-control")).toBe(CACHEABLE);
  });

  it("checks guardian-signed types against the guardian key", async () => {
    const result = expectOk(await stack.get("/record-v2/plain/url"));
    expect(result).toEqual(recordJson({ deserialized: "https://alice.example", stale: false, roa: true }, URL_FIELDS));
  });

  it("omits roa for types without a verifier, and reports an unsigned record as stale", async () => {
    const result = expectOk(await stack.get("/record-v2/plain/email"));
    expect(result).toEqual(recordJson({ deserialized: "alice@example.com", stale: true }, EMAIL_FIELDS));
  });

  it("returns a background record without deserialized (upstream: 422)", async () => {
    const result = expectOk(await stack.get("/record-v2/plain/background"));
    expect(result).toEqual(recordJson({ stale: false }, BACKGROUND_FIELDS));
  });

  it("prints IPv6 content in RFC 5952 form, the first of two equal zero runs shortened", async () => {
    expect(expectOk(await stack.get("/record-v2/plain/AAAA"))).toMatchObject({ deserialized: "::1:0:0:1:1:1" });
    expect(expectOk(await stack.get("/record-v2/plain/A"))).toMatchObject({ deserialized: "192.0.2.1" });
  });

  it("verifies Ethereum-style RoA for EVM records", async () => {
    expect(expectOk(await stack.get("/record-v2/plain/ETH"))).toMatchObject({
      deserialized: `0x${"ab".repeat(20)}`,
      stale: true,
      roa: true,
    });
  });

  it("reads subdomain records under the subdomain's key", async () => {
    expect(expectOk(await stack.get("/record-v2/SUB.plain/github"))).toMatchObject({
      deserialized: "bob",
      stale: false,
    });
  });

  it("trims and lowercases the domain", async () => {
    expect(expectOk(await stack.get("/record-v2/%20PLAIN%20/SOL"))).toMatchObject({ deserialized: bob.address });
  });

  it("reads the domain, its NFT record and the record in one getMultipleAccounts HTTP request", async () => {
    expectOk(await stack.get("/record-v2/plain/SOL"));
    expect(stack.localnet.stats).toEqual({
      httpRequests: 1,
      calls: 1,
      methods: { getMultipleAccounts: 1 },
      roundTrips: 1,
    });
  });

  it.each([
    ["tok", "active NFT"],
    ["inactive", "inactive NFT record (its tag is not consulted)"],
  ])("judges staleness against the NFT holder of a tokenized domain: %s, %s", async (name) => {
    expect(expectOk(await stack.get(`/record-v2/${name}/twitter`))).toMatchObject({ stale: false });
    expect(expectOk(await stack.get(`/record-v2/${name}/discord`))).toMatchObject({ stale: true });
  });

  it.each([
    ["burned", "NFT burned: the mint has no holder"],
    ["unminted", "mint account missing"],
  ])("falls back to the registry owner when no one holds the NFT: %s, %s", async (name) => {
    expect(expectOk(await stack.get(`/record-v2/${name}/discord`))).toMatchObject({ stale: false });
    expect(expectOk(await stack.get(`/record-v2/${name}/twitter`))).toMatchObject({ stale: true });
  });

  it("looks up the NFT holder only for a tokenized domain", async () => {
    expectOk(await stack.get("/record-v2/tok/twitter"));
    expect(stack.localnet.stats.methods).toEqual({ getMultipleAccounts: 2, getTokenLargestAccounts: 1 });
  });

  it.each([
    ["/record-v2/plain/IPFS", "the record does not exist"],
    ["/record-v2/nowhere/SOL", "the domain does not exist"],
    ["/record-v2/ghost/SOL", "the record exists but its domain does not"],
    ["/record-v2/sub.nowhere/SOL", "subdomain of a missing parent"],
  ])("%s → 404 Record not found (%s)", async (path) => {
    expectError(await stack.get(path), 404, "Record not found");
    expect(stack.localnet.stats.methods).toEqual({ getMultipleAccounts: 1 });
  });

  it.each([
    ["/record-v2/plain/CNAME", "content that is not valid Punycode"],
    ["/record-v2/plain/TXT", "a V2 header shorter than 104 bytes"],
  ])("%s → 422 Record is malformed (%s)", async (path) => {
    expectError(await stack.get(path), 422, "Record is malformed");
  });
});

describe("GET /records-v2/:domain", () => {
  it("returns present records in request order with their type first, missing ones omitted", async () => {
    const answer = await stack.get("/records-v2/plain?records=email,IPFS,SOL,pic,url");
    const result = expectOk(answer) as { type: string }[];
    expect(result).toEqual([
      { type: "email", ...recordJson({ deserialized: "alice@example.com", stale: true }, EMAIL_FIELDS) },
      { type: "SOL", ...recordJson({ deserialized: bob.address, stale: false, roa: true }, SOL_FIELDS) },
      { type: "url", ...recordJson({ deserialized: "https://alice.example", stale: false, roa: true }, URL_FIELDS) },
    ]);
    expect(Object.keys(result[0]!)).toEqual(["type", "deserialized", "stale", "record"]);
    expect(answer.headers.get("cache-control")).toBe(CACHEABLE);
  });

  it("returns duplicates twice and trims each item", async () => {
    const result = expectOk(await stack.get("/records-v2/plain?records=%20SOL%20,url,%20SOL")) as { type: string }[];
    expect(result.map((item) => item.type)).toEqual(["SOL", "url", "SOL"]);
    expect(result[2]).toEqual(result[0]);
  });

  it("returns an empty list when none of the records exist", async () => {
    expect(expectOk(await stack.get("/records-v2/plain?records=IPFS,pic"))).toEqual([]);
  });

  it("returns undecodable and background records without deserialized instead of failing the batch", async () => {
    const result = expectOk(await stack.get("/records-v2/plain?records=CNAME,background,AAAA")) as object[];
    expect(result).toEqual([
      { type: "CNAME", ...recordJson({ stale: false, roa: false }, fresh(alice.publicKey, BAD_PUNYCODE)) },
      { type: "background", ...recordJson({ stale: false }, BACKGROUND_FIELDS) },
      {
        type: "AAAA",
        ...recordJson({ deserialized: "::1:0:0:1:1:1", stale: false }, fresh(alice.publicKey, AAAA_TIE)),
      },
    ]);
  });

  it("fails the batch with 422 when a record's header cannot be read", async () => {
    expectError(await stack.get("/records-v2/plain?records=SOL,TXT"), 422, "Record is malformed");
  });

  it("judges staleness against the current owner of a tokenized domain", async () => {
    const result = expectOk(await stack.get("/records-v2/tok?records=discord,twitter"));
    expect(result).toMatchObject([
      { type: "discord", stale: true },
      { type: "twitter", stale: false },
    ]);
    const burned = expectOk(await stack.get("/records-v2/burned?records=discord,twitter"));
    expect(burned).toMatchObject([
      { type: "discord", stale: false },
      { type: "twitter", stale: true },
    ]);
  });

  it("reads everything in exactly one getMultipleAccounts HTTP request when the domain is not tokenized", async () => {
    expectOk(await stack.get("/records-v2/plain?records=SOL,url,email,background,AAAA,A,ETH,IPFS,SOL"));
    expect(stack.localnet.stats).toEqual({
      httpRequests: 1,
      calls: 1,
      methods: { getMultipleAccounts: 1 },
      roundTrips: 1,
    });
  });

  it("reads 100 requested records, every type repeated, as 30 distinct keys in one call", async () => {
    const records = Array.from({ length: 100 }, (_, i) => RECORD_TYPES[i % RECORD_TYPES.length]!);
    const result = expectOk(await stack.get(`/records-v2/sub.plain?records=${records.join(",")}`)) as object[];
    expect(result).toHaveLength(records.filter((type) => type === "github").length);
    expect(stack.localnet.stats).toEqual({
      httpRequests: 1,
      calls: 1,
      methods: { getMultipleAccounts: 1 },
      roundTrips: 1,
    });
  });

  it("makes the holder lookup only when an NFT record exists", async () => {
    expectOk(await stack.get("/records-v2/tok?records=discord"));
    expect(stack.localnet.stats.methods).toEqual({ getMultipleAccounts: 2, getTokenLargestAccounts: 1 });
    stack.localnet.resetStats();
    // Nothing to judge: no holder lookup even for a tokenized domain.
    expectOk(await stack.get("/records-v2/tok?records=IPFS"));
    expect(stack.localnet.stats.methods).toEqual({ getMultipleAccounts: 1 });
  });

  it.each(["/records-v2/nowhere?records=SOL", "/records-v2/ghost?records=SOL,url"])(
    "%s → 404 Domain not found",
    async (path) => {
      expectError(await stack.get(path), 404, "Domain not found");
    },
  );
});

describe("input validation", () => {
  const badDomains = ["a.b.c", "%20", ".plain", "plain.", "a..b"];

  it.each(badDomains)("domain %j → 400 on every route", async (domain) => {
    for (const path of [
      `/record-key-v2/${domain}/SOL`,
      `/record-v2/${domain}/SOL`,
      `/records-v2/${domain}?records=SOL`,
    ]) {
      expectError(await stack.get(path), 400, "Invalid input");
    }
  });

  it("record type in the path is not trimmed (only records items are)", async () => {
    expectError(await stack.get("/record-key-v2/plain/SOL%20"), 400, "Invalid input");
    expectError(await stack.get("/record-v2/plain/%20SOL"), 400, "Invalid input");
  });

  it.each(["sol", "Sol", "Url", "Injective", "Email", "unknown"])(
    "record type %j → 400 on every route",
    async (type) => {
      expectError(await stack.get(`/record-key-v2/plain/${type}`), 400, "Invalid input");
      expectError(await stack.get(`/record-v2/plain/${type}`), 400, "Invalid input");
      expectError(await stack.get(`/records-v2/plain?records=SOL,${type}`), 400, "Invalid input");
    },
  );

  it.each([
    ["missing", ""],
    ["empty", "?records="],
    ["blank", "?records=%20"],
    ["an empty item", "?records=SOL,"],
    ["a lone comma", "?records=,"],
    ["given twice", "?records=SOL&records=url"],
    ["101 items", `?records=${Array.from({ length: 101 }, () => "SOL").join(",")}`],
  ])("records %s → 400", async (_, query) => {
    expectError(await stack.get(`/records-v2/plain${query}`), 400, "Invalid input");
  });

  it("accepts exactly 100 items", async () => {
    expectOk(await stack.get(`/records-v2/plain?records=${Array.from({ length: 100 }, () => "SOL").join(",")}`));
  });

  it("no RPC call is made for invalid input", async () => {
    await stack.get("/record-v2/a.b.c/SOL");
    await stack.get("/records-v2/plain?records=sol");
    expect(stack.localnet.stats.httpRequests).toBe(0);
  });

  it("refuses an rpc override the policy forbids with 400", async () => {
    expectError(await stack.get("/record-v2/plain/SOL?rpc=https://127.0.0.1"), 400, "Invalid input");
    expectError(await stack.get("/records-v2/plain?records=SOL&rpc=http://example.com"), 400, "Invalid input");
    expect(stack.localnet.stats.httpRequests).toBe(0);
  });
});

describe("RPC failures and configuration", () => {
  it.each([
    ["a JSON-RPC error", { kind: "jsonrpc-error", code: -32005, message: "node is behind" }],
    ["an HTTP 503", { kind: "http-status", status: 503 }],
    ["garbage", { kind: "garbage" }],
  ] as const)("502 RPC unavailable on %s", async (_, fault) => {
    stack.localnet.setFault(fault);
    expectError(await stack.get("/record-v2/plain/SOL"), 502, "RPC unavailable");
    expectError(await stack.get("/records-v2/plain?records=SOL"), 502, "RPC unavailable");
  });

  it("502 when the holder lookup fails", async () => {
    stack.localnet.setFault({
      kind: "jsonrpc-error",
      code: -32005,
      message: "busy",
      method: "getTokenLargestAccounts",
    });
    expectError(await stack.get("/record-v2/tok/twitter"), 502, "RPC unavailable");
    expectError(await stack.get("/records-v2/tok?records=twitter"), 502, "RPC unavailable");
    // An untokenized domain never asks.
    expectOk(await stack.get("/record-v2/plain/SOL"));
  });

  it("500 Internal error when no RPC is configured and none is given", async () => {
    expectError(await request(noRpc.url, "/record-v2/plain/SOL"), 500, "Internal error");
    expectError(await request(noRpc.url, "/records-v2/plain?records=SOL"), 500, "Internal error");
  });

  it("validates the path before looking for an endpoint", async () => {
    expectError(await request(noRpc.url, "/record-v2/a.b.c/SOL"), 400, "Invalid input");
    expectError(await request(noRpc.url, "/record-v2/plain/sol"), 400, "Invalid input");
    expectError(await request(noRpc.url, "/records-v2/plain?records=nope"), 400, "Invalid input");
  });
});

describe("Cache-Control", () => {
  it("is shared-cacheable with CACHE_TTL_SECONDS on success without rpc", async () => {
    const cacheable = "public, max-age=120, stale-while-revalidate=180, stale-if-error=0";
    for (const path of [
      "/types/record",
      "/record-key-v2/plain/SOL",
      "/record-v2/plain/SOL",
      "/records-v2/plain?records=SOL",
    ]) {
      const answer = await request(privateOverride.url, path);
      expectOk(answer);
      expect(answer.headers.get("cache-control"), path).toBe(cacheable);
    }
  });

  it("is no-store on success with an rpc parameter, even an empty-looking one", async () => {
    const rpc = encodeURIComponent(stack.localnet.url);
    for (const path of [
      `/types/record?rpc=${rpc}`,
      `/record-key-v2/plain/SOL?rpc=${rpc}`,
      `/record-v2/plain/SOL?rpc=${rpc}`,
      `/records-v2/plain?records=SOL&rpc=${rpc}`,
      "/record-v2/plain/SOL?rpc=%20",
    ]) {
      const answer = await request(privateOverride.url, path);
      expectOk(answer);
      expect(answer.headers.get("cache-control"), path).toBe("no-store");
    }
  });

  it("an empty rpc parameter means RPC_URL and stays cacheable", async () => {
    const answer = await stack.get("/record-v2/plain/SOL?rpc=");
    expectOk(answer);
    expect(answer.headers.get("cache-control")).toBe(CACHEABLE);
  });

  it("is no-store on errors (checked by expectError throughout)", async () => {
    expectError(await stack.get("/record-v2/plain/IPFS"), 404, "Record not found");
    expectError(await stack.get("/record-v2/plain/CNAME"), 422, "Record is malformed");
    expectError(await stack.get("/records-v2/plain"), 400, "Invalid input");
  });
});

describe("methods", () => {
  it.each(["/record-v2/plain/SOL", "/records-v2/plain", "/record-key-v2/plain/SOL", "/types/record"])(
    "POST %s → 405",
    async (path) => {
      const answer = await stack.get(path, { method: "POST" });
      expect(answer.status).toBe(405);
      expect(answer.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    },
  );
});
