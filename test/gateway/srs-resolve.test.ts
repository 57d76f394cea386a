import type { Address } from "@solana/kit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  DEMO_FIXTURE_PATH,
  type Fault,
  type Ledger,
  buildDomainAccounts,
  identity,
  loadFixtureFile,
  pdaAddress,
} from "../../src/localnet/index.js";
import { SYSTEM_PROGRAM_ID, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../../src/sns/constants.js";
import { encodeSrsRecord } from "../../src/sns/layouts/srs-record.js";
import {
  type Stack,
  type TestGateway,
  request,
  startStack,
  startTestGateway,
  describeOnNode,
} from "../../testkit/stack.js";
import { largestAccountsResult, putSrsRecord, putSrsTokenName, srsMintOf } from "../../testkit/srs-ledger.js";

/*
 * SRS-backed `.sol` resolution over real HTTP against the localnet: every
 * scenario upstream's SRS tests cover, with SOL_SRS_RESOLUTION on (and each
 * PDA policy) and off. Expiries here are far from the host's clock (an hour
 * or more); the exact boundary, with the clock injected, is in
 * srs-expiry.test.ts.
 */

const key = (name: string) => identity(name).address;
const ok = (result: string) => ({ s: "ok", result });
const error = (result: string) => ({ s: "error", result });
const INTERNAL = error("Internal error");
const MALFORMED = error("Record is malformed");

const ALLOWED_PROGRAM = key("allowed-program");
const OTHER_PROGRAM = key("other-program");
const NOW = Math.floor(Date.now() / 1000);
const HOUR = 3600n;

const vault = pdaAddress("srs-vault");
const rogue = pdaAddress("srs-rogue");
const ghost = pdaAddress("srs-ghost");
const heldByVault = pdaAddress("srs-held-by-vault");

/** Every named scenario: its ledger setup. Names are flat SRS names (no SNS domain unless the demo has one). */
function buildScenarios(ledger: Ledger): void {
  const put = (name: string, fields: Parameters<typeof encodeSrsRecord>[0], program?: Address) =>
    putSrsRecord(ledger, name, fields, program);
  put("srs-live", { owner: key("alice") });
  put("srs-frozen", { owner: key("alice"), frozen: true });
  put("srs-trailing", { owner: key("alice"), trailing: 40 });
  put("srs-wrong-program", { owner: key("alice") }, OTHER_PROGRAM);
  putSrsRecord(ledger, "srs-74-bytes", { data: encodeSrsRecord({ owner: key("alice") }).subarray(0, 74) });
  put("srs-discriminator-1", { owner: key("alice"), discriminator: 1 });
  put("srs-class", { owner: key("alice"), recordClass: SYSTEM_PROGRAM_ID });
  put("srs-owner-type-2", { owner: key("alice"), ownerType: 2 });
  put("srs-expiry-minus-1", { owner: key("alice"), expiry: -1n });
  put("srs-expiry-0", { owner: key("alice"), expiry: 0n });
  put("srs-expired-hour", { owner: key("alice"), expiry: BigInt(NOW) - HOUR });
  put("srs-valid-hour", { owner: key("alice"), expiry: BigInt(NOW) + HOUR });
  put("srs-expiry-i64-min", { owner: key("alice"), expiry: -(2n ** 63n) });
  put("srs-expiry-i64-max", { owner: key("alice"), expiry: 2n ** 63n - 1n });
  // PDA owners: one whose account a program in the list owns, one another program owns, one with no account.
  put("srs-pda-allowed", { owner: vault });
  ledger.setAccount(vault, { owner: ALLOWED_PROGRAM, data: new Uint8Array(8) });
  put("srs-pda-other", { owner: rogue });
  ledger.setAccount(rogue, { owner: OTHER_PROGRAM, data: new Uint8Array(8) });
  put("srs-pda-missing", { owner: ghost });
  // Token owners.
  putSrsTokenName(ledger, "srs-token", { holders: [{ wallet: key("carol") }] });
  putSrsTokenName(ledger, "srs-token-frozen", { holders: [{ wallet: key("carol"), state: 2 }] });
  putSrsTokenName(ledger, "srs-token-plain-forms", {
    mint: { extensions: false },
    holders: [{ wallet: key("carol"), extensions: false }],
  });
  putSrsTokenName(ledger, "srs-token-expired", { expiry: BigInt(NOW) - HOUR, holders: [{ wallet: key("carol") }] });
  putSrsTokenName(ledger, "srs-noncanonical", {
    recordMint: srsMintOf("srs-token"),
    holders: [{ wallet: key("carol") }],
  });
  putSrsTokenName(ledger, "srs-mint-missing", { mint: null });
  putSrsTokenName(ledger, "srs-mint-classic", {
    mint: { program: TOKEN_PROGRAM_ID, extensions: false },
    holders: [{ wallet: key("carol") }],
  });
  putSrsTokenName(ledger, "srs-mint-1-byte", { mint: { data: new Uint8Array([1]) } });
  putSrsTokenName(ledger, "srs-mint-100-bytes", { mint: { data: new Uint8Array(100) } });
  putSrsTokenName(ledger, "srs-mint-uninitialized", {
    mint: { initialized: false },
    holders: [{ wallet: key("carol") }],
  });
  putSrsTokenName(ledger, "srs-mint-decimals-1", { mint: { decimals: 1 }, holders: [{ wallet: key("carol") }] });
  putSrsTokenName(ledger, "srs-mint-supply-2", { mint: { supply: 2n }, holders: [{ wallet: key("carol") }] });
  putSrsTokenName(ledger, "srs-no-holder", { holders: [] });
  putSrsTokenName(ledger, "srs-two-holders", { holders: [{ wallet: key("carol") }, { wallet: key("dave") }] });
  putSrsTokenName(ledger, "srs-holder-amount-0", { holders: [{ wallet: key("carol"), amount: 0n }] });
  putSrsTokenName(ledger, "srs-holder-uninitialized", { holders: [{ wallet: key("carol"), state: 0 }] });
  putSrsTokenName(ledger, "srs-holder-classic", {
    holders: [{ wallet: key("carol"), program: TOKEN_PROGRAM_ID, extensions: false }],
  });
  putSrsTokenName(ledger, "srs-holder-pda", { holders: [{ wallet: heldByVault }] });
  ledger.setAccount(heldByVault, { owner: ALLOWED_PROGRAM, data: new Uint8Array(8) });
  // Names each read by one test only (round trips counted cold, then warm; one name per cold fault case).
  for (const name of ["srs-rt-token", "srs-rt-coalesced", "srs-rt-both", "srs-rt-moving"])
    putSrsTokenName(ledger, name, { holders: [{ wallet: key("carol") }] });
  putSrsTokenName(ledger, "srs-rt-pda-holder", { holders: [{ wallet: heldByVault }] });
  for (const { address, account } of buildDomainAccounts({
    name: "srs-rt-both",
    owner: "alice",
    tokenized: { holder: "carol" },
  })) {
    ledger.setAccount(address, account);
  }
  COLD_READS.forEach(([owner], r) =>
    FAULTS.forEach((_, k) => {
      const name = coldName(owner, r, k);
      if (owner === "token") putSrsTokenName(ledger, name, { holders: [{ wallet: heldByVault }] });
      else put(name, { owner: vault });
    }),
  );
  // Holder accounts the node's index would never list under the mint: named through a crafted largest-accounts answer.
  putSrsTokenName(ledger, "srs-crafted", { holders: [] });
  ledger.setAccount(key("crafted-1-byte"), { owner: TOKEN_2022_PROGRAM_ID, data: new Uint8Array([2]) });
}

type Expected = readonly [status: number, body: unknown];
const expectKey = (name: string): Expected => [200, ok(key(name))];
const expectPda = (address: Address): Expected => [200, ok(address)];

/** `/resolve/<name>.sol` with SRS on and no PDA allowed. */
const RESOLVE_ON: readonly (readonly [string, Expected, string])[] = [
  ["srs-live", expectKey("alice"), "a live public-key owner"],
  ["srs-frozen", expectKey("alice"), "a frozen record resolves"],
  ["srs-trailing", expectKey("alice"), "bytes after the 75-byte header are ignored"],
  ["nobody-has-this", [404, error("Domain not found")], "no SRS record"],
  ["srs-wrong-program", [422, MALFORMED], "record owned by another program"],
  ["srs-74-bytes", [422, MALFORMED], "74 bytes"],
  ["srs-discriminator-1", [422, MALFORMED], "discriminator 1"],
  ["srs-class", [422, MALFORMED], "another class"],
  ["srs-owner-type-2", [422, MALFORMED], "owner type 2"],
  ["srs-expiry-minus-1", [410, error("Domain expired")], "expiry -1"],
  ["srs-expiry-0", expectKey("alice"), "expiry 0 never expires"],
  ["srs-expired-hour", [410, error("Domain expired")], "expired an hour ago"],
  ["srs-valid-hour", expectKey("alice"), "expires in an hour"],
  ["srs-expiry-i64-min", [410, error("Domain expired")], "expiry i64::MIN"],
  ["srs-expiry-i64-max", expectKey("alice"), "expiry i64::MAX"],
  ["srs-pda-allowed", [500, INTERNAL], "PDA owner, none allowed"],
  ["srs-token", expectKey("carol"), "token owner: Initialized holder, MintCloseAuthority mint, ImmutableOwner account"],
  ["srs-token-frozen", expectKey("carol"), "token owner: Frozen holder"],
  ["srs-token-plain-forms", expectKey("carol"), "token owner: base-length mint and account"],
  ["srs-token-expired", [410, error("Domain expired")], "expiry is checked before the token owner"],
  ["srs-noncanonical", [422, MALFORMED], "noncanonical mint"],
  ["srs-mint-missing", [500, INTERNAL], "mint missing"],
  ["srs-mint-classic", [500, INTERNAL], "mint owned by the classic token program"],
  ["srs-mint-1-byte", [500, INTERNAL], "mint of 1 byte"],
  ["srs-mint-100-bytes", [500, INTERNAL], "mint between 82 and 166 bytes"],
  ["srs-mint-uninitialized", [500, INTERNAL], "mint uninitialized"],
  ["srs-mint-decimals-1", [500, INTERNAL], "mint decimals 1"],
  ["srs-mint-supply-2", [500, INTERNAL], "mint supply 2"],
  ["srs-no-holder", [500, INTERNAL], "largest accounts []"],
  ["srs-two-holders", [500, INTERNAL], "two holders of 1"],
  ["srs-holder-amount-0", [500, INTERNAL], "holder amount 0"],
  ["srs-holder-uninitialized", [500, INTERNAL], "holder Uninitialized"],
  ["srs-holder-classic", [500, INTERNAL], "holder owned by the classic token program"],
  ["srs-holder-pda", [500, INTERNAL], "holder's owner a PDA, none allowed"],
  // The demo ledger's SRS names.
  ["plain", expectKey("bob"), "demo: plain SRS name"],
  ["bonfida", expectKey("carol"), "demo: tokenized SRS name"],
  ["expired", [410, error("Domain expired")], "demo: expired"],
  ["v1-sol", expectKey("dave"), "demo: never expires"],
  ["v2-sol", expectKey("frank"), "demo: SRS owner differs from SNS target"],
  ["dex.bonfida", [404, error("Domain not found")], "sub.name.sol is one flat SRS name, not the SNS subdomain"],
];

let stack: Stack;
let anyPda: TestGateway;
let programPda: TestGateway;
let off: TestGateway;
/** Program-list PDA policy and a short RPC deadline: every read of the SRS path, faults included. */
let impatient: TestGateway;

beforeAll(async () => {
  const ledger = await loadFixtureFile(DEMO_FIXTURE_PATH);
  buildScenarios(ledger);
  stack = await startStack(ledger, { SOL_SRS_RESOLUTION: "on" });
  const rpc = { RPC_URL: stack.localnet.url, SOL_SRS_RESOLUTION: "on" };
  [anyPda, programPda, off, impatient] = await Promise.all([
    startTestGateway({ ...rpc, ALLOW_PDA_OWNERS: "any" }),
    startTestGateway({ ...rpc, ALLOW_PDA_OWNERS: ALLOWED_PROGRAM }),
    startTestGateway({ RPC_URL: stack.localnet.url }),
    startTestGateway({ ...rpc, ALLOW_PDA_OWNERS: ALLOWED_PROGRAM, RPC_TIMEOUT_MS: "400" }),
  ]);
});
afterAll(async () => {
  await Promise.all([anyPda?.close(), programPda?.close(), off?.close(), impatient?.close()]);
  await stack?.close();
});
beforeEach(() => {
  stack.localnet.setFault(null);
  stack.localnet.resetStats();
});

describe("GET /resolve/<name>.sol, SOL_SRS_RESOLUTION=on", () => {
  it.each(RESOLVE_ON)("%s (%s)", async (name, [status, body]) => {
    const answer = await stack.get(`/resolve/${name}.sol`);
    expect({ status: answer.status, body: answer.body }).toEqual({ status, body });
    expect(stack.localnet.stats.methods.getSlot).toBeUndefined();
  });

  it(".sns names take the name-service path, with no slot read", async () => {
    expect((await stack.get("/resolve/bonfida.sns")).body).toEqual(ok(key("carol")));
    expect((await stack.get("/resolve/v2-sol.sns")).body).toEqual(ok(key("erin")));
    expect(stack.localnet.stats.methods.getSlot).toBeUndefined();
  });

  it("a .sol name reads the SRS record only: no name-service account, no slot, even past the cutoff slot", async () => {
    stack.localnet.ledger.slot = 500_000_000;
    try {
      expect((await stack.get("/resolve/plain.sol")).body).toEqual(ok(key("bob")));
      expect(stack.localnet.stats.methods).toEqual({ getMultipleAccounts: 1 });
    } finally {
      stack.localnet.ledger.slot = 300_000_000;
    }
  });

  it("normalizes the name as for .sns", async () => {
    expect((await stack.get("/resolve/%20PLAIN.Sol%09")).body).toEqual(ok(key("bob")));
    expect((await stack.get("/resolve/a.b.c.sol")).status).toBe(400);
  });
});

describe("the PDA policy applies to the final owner as on .sns", () => {
  const ask = (gateway: TestGateway, name: string) => request(gateway.url, `/resolve/${name}.sol`);
  it.each([
    ["srs-pda-allowed", [500, INTERNAL], expectPda(vault), expectPda(vault)],
    ["srs-pda-other", [500, INTERNAL], expectPda(rogue), [500, INTERNAL]],
    ["srs-pda-missing", [500, INTERNAL], expectPda(ghost), [500, INTERNAL]],
    ["srs-holder-pda", [500, INTERNAL], expectPda(heldByVault), expectPda(heldByVault)],
    ["srs-live", expectKey("alice"), expectKey("alice"), expectKey("alice")],
  ] as const)("%s: none / any / program list", async (name, none, any, programs) => {
    const answers = await Promise.all([stack.get(`/resolve/${name}.sol`), ask(anyPda, name), ask(programPda, name)]);
    expect(answers.map((a) => [a.status, a.body])).toEqual([none, any, programs]);
  });
});

describe("Token-2022 reads the node's index cannot produce (crafted getTokenLargestAccounts answers)", () => {
  const craft = (entries: readonly (readonly [Address, string])[]): Fault => ({
    kind: "malformed-result",
    method: "getTokenLargestAccounts",
    result: largestAccountsResult(entries),
  });
  it.each([
    ["holder missing", [[key("nobody-holds"), "1"]]],
    ["holder of 1 byte", [[key("crafted-1-byte"), "1"]]],
    ["holder of another mint", [[`${"srs-token"}`, "1"]]],
    ["holder amount 0 listed as 1", [["srs-holder-amount-0", "1"]]],
    ['amount "1.0" is not "1"', [["srs-token", "1.0"]]],
  ] as const)("%s → 500", async (_, entries) => {
    const holderOf = (ref: string): Address =>
      ref.startsWith("srs-")
        ? (stack.localnet.ledger.tokenLargestAccounts(srsMintOf(ref))[0]!.address as Address)
        : (ref as Address);
    stack.localnet.setFault(craft(entries.map(([ref, amount]) => [holderOf(ref), amount])));
    const answer = await stack.get("/resolve/srs-crafted.sol");
    expect({ status: answer.status, body: answer.body }).toEqual({ status: 500, body: INTERNAL });
  });

  it("a crafted answer naming the real holder resolves (the answer is what is read, not the index)", async () => {
    const holder = stack.localnet.ledger.tokenLargestAccounts(srsMintOf("srs-token"))[0]!.address as Address;
    stack.localnet.setFault(
      craft([
        [holder, "1"],
        [key("someone"), "0"],
      ]),
    );
    expect((await stack.get("/resolve/srs-token.sol")).body).toEqual(ok(key("carol")));
  });

  it("-32602 on getTokenLargestAccounts means no such mint: no owner (500), not an RPC fault", async () => {
    stack.localnet.setFault({
      kind: "jsonrpc-error",
      method: "getTokenLargestAccounts",
      code: -32602,
      message: "Invalid param: not a Token mint",
    });
    expect(await stack.get("/resolve/srs-token.sol")).toMatchObject({ status: 500, body: INTERNAL });
  });

  it("any other getTokenLargestAccounts error is 502", async () => {
    stack.localnet.setFault({
      kind: "jsonrpc-error",
      method: "getTokenLargestAccounts",
      code: -32603,
      message: "Internal error",
    });
    expect(await stack.get("/resolve/srs-token.sol")).toMatchObject({ status: 502, body: error("RPC unavailable") });
  });
});

const SAFE_ON: readonly (readonly [string, Expected, string])[] = [
  ["plain", expectKey("bob"), "both agree (SRS owner = SNS registry owner)"],
  ["bonfida", expectKey("carol"), "both agree (SRS token holder = SNS NFT holder)"],
  ["v1-sol", expectKey("dave"), "both agree (SNS V1 SOL record)"],
  ["v2-sol", [409, error("SRS and SNS resolution mismatch")], "SRS frank, SNS erin"],
  ["srs-only", [404, error("Domain not found")], "SNS side missing"],
  ["stale-v2", [404, error("Domain not found")], "SRS side missing"],
  ["nobody-has-this", [404, error("Domain not found")], "both missing"],
  ["expired", [410, error("Domain expired")], "SRS expired, SNS resolves"],
  ["invalid-roa", [404, error("Domain not found")], "both fail: the SRS side's error (SNS: 422)"],
  ["srs-wrong-program", [422, MALFORMED], "both fail: the SRS side's error (SNS: 404)"],
];

describe("GET /safe-resolve/<name>.sol, SOL_SRS_RESOLUTION=on", () => {
  it.each(SAFE_ON)("%s → %j (%s)", async (name, [status, body]) => {
    const answer = await stack.get(`/safe-resolve/${name}.sol`);
    expect({ status: answer.status, body: answer.body }).toEqual({ status, body });
  });

  it("reads both registries in one round trip for a public-key owner", async () => {
    await stack.get("/safe-resolve/plain.sol");
    expect(stack.localnet.stats).toMatchObject({ httpRequests: 1, methods: { getMultipleAccounts: 1 } });
  });

  it("the name-service side reads no slot: past the cutoff it still cross-checks", async () => {
    stack.localnet.ledger.slot = 500_000_000;
    try {
      expect((await stack.get("/safe-resolve/v1-sol.sol")).body).toEqual(ok(key("dave")));
      expect((await stack.get("/safe-resolve/v2-sol.sol")).status).toBe(409);
      expect(stack.localnet.stats.methods.getSlot).toBeUndefined();
    } finally {
      stack.localnet.ledger.slot = 300_000_000;
    }
  });

  it("the same chain state always gives the same answer when both sides fail", async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => stack.get("/safe-resolve/invalid-roa.sol")));
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([404]));
  });

  it(".sns names answer as /resolve", async () => {
    for (const name of ["bonfida.sns", "v2-sol.sns", "invalid-roa.sns", "nope.sns"]) {
      const [plain, safe] = await Promise.all([stack.get(`/resolve/${name}`), stack.get(`/safe-resolve/${name}`)]);
      expect([safe.status, safe.body]).toEqual([plain.status, plain.body]);
    }
  });
});

describe("SOL_SRS_RESOLUTION=off (default): behaviour exactly as before", () => {
  const ask = (path: string) => request(off.url, path);
  it("a .sol name resolves through the name service, after the slot gate", async () => {
    expect((await ask("/resolve/v2-sol.sol")).body).toEqual(ok(key("erin")));
    expect((await ask("/resolve/srs-only.sol")).body).toEqual(error("Domain not found"));
    expect((await ask("/resolve/expired.sol")).body).toEqual(error("Domain not found"));
    expect(stack.localnet.stats.methods.getSlot).toBe(1);
  });

  it("/safe-resolve is /resolve", async () => {
    for (const name of ["v2-sol.sol", "plain.sol", "srs-live.sol", "bonfida.sns", "invalid-roa.sol"]) {
      const [plain, safe] = await Promise.all([ask(`/resolve/${name}`), ask(`/safe-resolve/${name}`)]);
      expect([safe.status, safe.body]).toEqual([plain.status, plain.body]);
    }
  });
});

/**
 * Each read of the SRS path, as the localnet sees it: the method, and how
 * many such requests come before it. Cold: the first resolution of a name
 * (a fresh name per case); warm: a token-owned name resolved before, whose
 * largest holders and holder account are read with the record.
 */
const COLD_READS = [
  ["token", "record and mint", "getMultipleAccounts", 0],
  ["token", "largest holders", "getTokenLargestAccounts", 0],
  ["token", "holder account", "getMultipleAccounts", 1],
  ["token", "holder's owner (program-list PDA policy)", "getMultipleAccounts", 2],
  ["key", "record and mint", "getMultipleAccounts", 0],
  ["key", "owner (program-list PDA policy)", "getMultipleAccounts", 1],
] as const;
const WARM_READS = [
  ["record, mint and holder account", "getMultipleAccounts", 0],
  ["largest holders (same batch)", "getTokenLargestAccounts", 0],
  ["holder's owner (program-list PDA policy)", "getMultipleAccounts", 1],
] as const;

const FAULTS: readonly (readonly [string, Fault])[] = [
  ["JSON-RPC error", { kind: "jsonrpc-error", code: -32005, message: "Node is behind" }],
  ["HTTP 503", { kind: "http-status", status: 503 }],
  ["garbage body", { kind: "garbage" }],
  ["wrong result shape", { kind: "malformed-result" }],
  ["no answer within RPC_TIMEOUT_MS", { kind: "hang" }],
];

/** A name per cold fault case, written by buildScenarios: its holder's (or its own) owner a PDA the program list allows. */
const coldName = (owner: "token" | "key", read: number, kind: number) => `srs-cold-${owner}-${read}-${kind}`;

describe("every RPC fault on every read of the SRS path → 502", () => {
  const expect502 = async (path: string) => {
    const answer = await request(impatient.url, path);
    expect({ status: answer.status, body: answer.body }).toEqual({ status: 502, body: error("RPC unavailable") });
  };
  const cold = COLD_READS.flatMap(([owner, read, method, skip], r) =>
    FAULTS.map(
      ([kind, fault], k) =>
        [owner, read, kind, coldName(owner, r, k), { ...fault, method, skip, times: 1 } as Fault] as const,
    ),
  );
  it.each(cold)("first resolution, %s owner, read %s: %s", async (_owner, _read, _kind, name, fault) => {
    stack.localnet.setFault(fault);
    await expect502(`/resolve/${name}.sol`);
    expect((await request(impatient.url, `/resolve/${name}.sol`)).status).toBe(200);
  });

  const warm = WARM_READS.flatMap(([read, method, skip]) =>
    FAULTS.map(([kind, fault]) => [read, kind, { ...fault, method, skip, times: 1 } as Fault] as const),
  );
  it.each(warm)("holder known, read %s: %s", async (_read, _kind, fault) => {
    expect((await request(impatient.url, "/resolve/srs-holder-pda.sol")).status).toBe(200);
    stack.localnet.setFault(fault);
    await expect502("/resolve/srs-holder-pda.sol");
  });

  it.each(FAULTS)("/safe-resolve: %s on the shared first read", async (_, fault) => {
    stack.localnet.setFault({ ...fault, times: 1 });
    await expect502("/safe-resolve/plain.sol");
  });
});

describe("a known holder account is only a guess", () => {
  it("a token that moved is found at its new holder; a record turned key-owned answers its key", async () => {
    const ledger = stack.localnet.ledger;
    expect((await stack.get("/resolve/srs-rt-moving.sol")).body).toEqual(ok(key("carol")));
    putSrsTokenName(ledger, "srs-rt-moving", {
      holders: [{ wallet: key("carol"), amount: 0n }, { wallet: key("dave") }],
    });
    expect((await stack.get("/resolve/srs-rt-moving.sol")).body).toEqual(ok(key("dave")));
    putSrsRecord(ledger, "srs-rt-moving", { owner: key("erin") });
    expect((await stack.get("/resolve/srs-rt-moving.sol")).body).toEqual(ok(key("erin")));
    putSrsTokenName(ledger, "srs-rt-moving", {
      holders: [{ wallet: key("dave"), amount: 0n }, { wallet: key("frank") }],
    });
    expect((await stack.get("/resolve/srs-rt-moving.sol")).body).toEqual(ok(key("frank")));
  });
});

describe("round trips, counted on the RPC", () => {
  const counted = async (gateway: TestGateway | Stack, path: string) => {
    stack.localnet.resetStats();
    const answer = "get" in gateway ? await gateway.get(path) : await request(gateway.url, path);
    expect(answer.status).toBe(200);
    const { roundTrips, httpRequests, calls, methods } = stack.localnet.stats;
    return { roundTrips, httpRequests, calls, methods };
  };
  it("a public-key owner: one getMultipleAccounts (record and canonical mint)", async () => {
    expect(await counted(stack, "/resolve/plain.sol")).toEqual({
      roundTrips: 1,
      httpRequests: 1,
      calls: 1,
      methods: { getMultipleAccounts: 1 },
    });
  });
  it("a token owner: three sequential round trips the first time, one once its holder account is known", async () => {
    expect(await counted(stack, "/resolve/srs-rt-token.sol")).toEqual({
      roundTrips: 3,
      httpRequests: 3,
      calls: 3,
      methods: { getMultipleAccounts: 2, getTokenLargestAccounts: 1 },
    });
    expect(await counted(stack, "/resolve/srs-rt-token.sol")).toEqual({
      roundTrips: 1,
      httpRequests: 1,
      calls: 2,
      methods: { getMultipleAccounts: 1, getTokenLargestAccounts: 1 },
    });
  });
  it("a program-list PDA owner takes one more read, as on .sns", async () => {
    expect((await counted(programPda, "/resolve/srs-pda-allowed.sol")).roundTrips).toBe(2);
    expect((await counted(programPda, "/resolve/srs-rt-pda-holder.sol")).roundTrips).toBe(4);
    expect((await counted(programPda, "/resolve/srs-rt-pda-holder.sol")).roundTrips).toBe(2);
  });
  it("/safe-resolve: both registries in the same round trips", async () => {
    expect(await counted(stack, "/safe-resolve/plain.sol")).toMatchObject({
      roundTrips: 1,
      httpRequests: 1,
      methods: { getMultipleAccounts: 1 },
    });
    // Tokenized in both registries: three round trips, then one once both holders are known.
    expect(await counted(stack, "/safe-resolve/srs-rt-both.sol")).toMatchObject({
      roundTrips: 3,
      methods: { getMultipleAccounts: 2, getTokenLargestAccounts: 2 },
    });
    expect(await counted(stack, "/safe-resolve/srs-rt-both.sol")).toMatchObject({
      roundTrips: 1,
      methods: { getMultipleAccounts: 1, getTokenLargestAccounts: 2 },
    });
  });
});

describeOnNode("coalescing and batching across requests (Node: Workers share no promise between requests)", () => {
  it("concurrent SRS resolutions of different names share one getMultipleAccounts", async () => {
    const names = [
      "srs-live",
      "srs-frozen",
      "srs-trailing",
      "srs-valid-hour",
      "srs-expiry-0",
      "plain",
      "v1-sol",
      "nobody-a",
      "nobody-b",
    ];
    await Promise.all(names.map(() => stack.get("/health")));
    stack.localnet.setLatency(200);
    stack.localnet.resetStats();
    try {
      const [first, ...rest] = names;
      const leader = stack.get(`/resolve/${first}.sol`);
      const answers = await Promise.all([leader, ...rest.map((name) => stack.get(`/resolve/${name}.sol`))]);
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200, 200, 404, 404]);
      expect(stack.localnet.stats.methods.getMultipleAccounts).toBeLessThanOrEqual(2);
    } finally {
      stack.localnet.setLatency(0);
    }
  });

  it("concurrent requests for one SRS name share one resolution", async () => {
    stack.localnet.setLatency(300);
    stack.localnet.resetStats();
    try {
      const answers = await Promise.all(Array.from({ length: 20 }, () => stack.get("/resolve/srs-rt-coalesced.sol")));
      expect(new Set(answers.map((a) => a.text)).size).toBe(1);
      expect(stack.localnet.stats.calls).toBe(3);
    } finally {
      stack.localnet.setLatency(0);
    }
  });
});
