import {
  AccountRole,
  type Instruction as KitInstruction,
  decompileTransactionMessage,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
} from "@solana/kit";
import { PublicKey, Transaction } from "@solana/web3.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Fault, Ledger, buildDomainAccounts, startLocalnet } from "../../src/localnet/index.js";
import { NAME_PROGRAM_ID } from "../../src/sns/constants.js";
import { deriveDomainKey, deriveNftRecordKey } from "../../src/sns/derive.js";
import { planSubdomain } from "../../src/sns/instructions/create-subdomain.js";
import { PAYMENT_MINTS } from "../../src/sns/instructions/payment-mints.js";
import { loadConfig } from "../../src/config.js";
import { startGateway } from "../../src/platform/node/gateway.js";
import { captureLog } from "../../testkit/log-capture.js";
import { type Answer, type Stack, startStack, startTestGateway, request, describeOnNode } from "../../testkit/stack.js";

/*
 * `/register` and `/create-subdomain` over real HTTP against the localnet:
 * the vectors of the protocol reference byte for byte, every query
 * validation row, what is read (and in how many round trips), every RPC
 * fault on every read, and a serialized transaction decoded by web3.js 1.x
 * and by @solana/kit into the same instructions.
 */

const OWNER = "Fxuoy3gFjfJALhwkRcuKjRdechcgffUApeYAfMWck6w8";
const OTHER = "C8jwKc5ieVM1yzMqMsW7ShJyTnN2GbLaf8XV2s4hthRS";
const SOLFLARE = "HemvJzwxvVpWBjPETpaseAH395WAxb2G73MeUfjVkK1u";
const VECTOR_BLOCKHASH = "EETubP5AKHgjPAhzPAFcb8BAY1hMH639CWCFTqi3hq1k";

let ledger: Ledger;
let stack: Stack;

beforeAll(async () => {
  // The protocol reference's vectors were computed when rent was 6,960 lamports a byte. The gateway
  // asks the RPC for rent, so this ledger charges that rate to compare them byte for byte; the
  // localnet's default is today's lower mainnet rate (see "takes rent from the RPC" below).
  ledger = new Ledger({ lamportsPerByte: 6_960 });
  for (const spec of [
    { name: "example", owner: OWNER },
    { name: "foreign", owner: OTHER },
    { name: "art", owner: { nftRecord: "art" }, tokenized: { holder: OWNER, state: "active" as const } },
    { name: "reversed", owner: OWNER },
  ]) {
    for (const { address, account } of buildDomainAccounts(spec)) ledger.setAccount(address, account);
  }
  ledger.setAccount(planSubdomain("team.reversed", 0).reverse, { owner: NAME_PROGRAM_ID, data: new Uint8Array(0) });
  ledger.setAccount(deriveDomainKey("short"), { owner: NAME_PROGRAM_ID, data: new Uint8Array(40) });
  stack = await startStack(ledger);
});
afterAll(() => stack.close());
beforeEach(() => stack.localnet.setFault(null));

const ok = (result: unknown) => ({ s: "ok", result });
const error = (message: string) => ({ s: "error", result: message });
const invalid = { status: 400, body: error("Invalid input") };

interface InstructionJson {
  programId: string;
  keys: { isSigner: boolean; isWritable: boolean; pubkey: string }[];
  data: string;
}
const listOf = (answer: Answer) => (answer.body as { result: InstructionJson[] }).result;
const bytesOf = (answer: Answer) => Buffer.from((answer.body as { result: string }).result, "base64");
const outcome = (answer: Answer) => ({ status: answer.status, body: answer.body });
const register = (query: string) => stack.get(`/register?${query}`);
const createSubdomain = (query: string) => stack.get(`/create-subdomain?${query}`);
const EXAMPLE = `buyer=${OWNER}&domain=example&space=1000`;

/** The blockhash of the protocol reference's vectors, answered by the localnet in place of its own. */
const vectorBlockhash: Fault = {
  kind: "malformed-result",
  method: "getLatestBlockhash",
  result: { context: { slot: 1 }, value: { blockhash: VECTOR_BLOCKHASH, lastValidBlockHeight: 151 } },
};

/** web3.js 1.x's serialization of an instruction list as the route answers it (the oracle of the bytes). */
function web3Serialize(feePayer: string, list: InstructionJson[], blockhash: string): Buffer {
  const transaction = new Transaction();
  transaction.feePayer = new PublicKey(feePayer);
  transaction.recentBlockhash = blockhash;
  for (const ix of list) {
    transaction.add({
      programId: new PublicKey(ix.programId),
      keys: ix.keys.map((k) => ({ pubkey: new PublicKey(k.pubkey), isSigner: k.isSigner, isWritable: k.isWritable })),
      data: Buffer.from(ix.data, "base64"),
    });
  }
  return transaction.serialize({ requireAllSignatures: false, verifySignatures: false });
}

describe("vectors of the protocol reference", () => {
  it("register example.sns, 1000 bytes, USDC", async () => {
    const answer = await register(EXAMPLE);
    expect(answer.status).toBe(200);
    const [ix, ...rest] = listOf(answer);
    expect(rest).toEqual([]);
    expect(ix!.programId).toBe("jCebN34bUfdeUYJT13J1yG16XWQpt5PDx6Mse9GUqhR");
    expect(ix!.data).toBe("FAcAAABleGFtcGxl6AMAAAA=");
    expect(ix!.keys.map((k) => [k.pubkey, k.isSigner, k.isWritable])).toEqual([
      ["namesLPneVptA9Z5rqUDD9tMTWEJwofgaYwp8cawRkX", false, false],
      ["58PwtjSDuFHuUkYjH9BYnnQKHfwo9reZhC2zMJv9JPkx", false, false],
      ["3hAeKRCU9LMrnHZBzJ8YzbHSjJXEV73oaW8s81MWpY95", false, true],
      ["7MpAkusYvZ24k6enyFUjYj7nPAmtZRPj5YTY5UvB14w9", false, true],
      ["11111111111111111111111111111111", false, false],
      ["33m47vH6Eav6jr5Ry86XjhRft2jRBLDnDgPSHoquXi2Z", false, false],
      [OWNER, true, true],
      [OWNER, false, false],
      [OWNER, true, true],
      ["228DwbHZpgC9ybBEL71wC9e15eWju5HqJBuPytFi5wTk", false, true],
      ["6HAuqASbHEh4w4REJEUUUCginTLfj1kwCh215ZLtMkrT", false, false],
      ["ArcUsvW3PNMmfTK9u7nntjwpbg8dkvAMxGzoYD2LENjX", false, true],
      ["TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA", false, false],
      ["SysvarRent111111111111111111111111111111111", false, false],
      ["56K3aq1AL6rLUCx9uuqZqEWEMtjfWHg19vp67Meko4he", false, false],
    ]);
  });

  it("with referrer 6 (Solflare): its token account created first, then the registration naming it", async () => {
    const [ata, ix] = listOf(await register(`${EXAMPLE}&referrer=${SOLFLARE}`));
    expect(ata).toEqual({
      programId: "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL",
      keys: [
        { isSigner: true, isWritable: true, pubkey: OWNER },
        { isSigner: false, isWritable: true, pubkey: "4dNMXwbUtKYspnD7tdHLwiVnBNoVZW7QdSwbTKREXVMv" },
        { isSigner: false, isWritable: false, pubkey: SOLFLARE },
        { isSigner: false, isWritable: false, pubkey: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v" },
        { isSigner: false, isWritable: false, pubkey: "11111111111111111111111111111111" },
        { isSigner: false, isWritable: false, pubkey: "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA" },
      ],
      data: "AQ==",
    });
    expect(ix!.data).toBe("FAcAAABleGFtcGxl6AMAAAEGAA==");
    expect(ix!.keys.at(-1)).toEqual({
      isSigner: false,
      isWritable: true,
      pubkey: "4dNMXwbUtKYspnD7tdHLwiVnBNoVZW7QdSwbTKREXVMv",
    });
  });

  it("serialized with the vectors' blockhash: header [1,0,9], the listed account order, web3.js's bytes", async () => {
    stack.localnet.setFault(vectorBlockhash);
    const answer = await register(`${EXAMPLE}&serialize=true`);
    const bytes = bytesOf(answer);
    expect(bytes[0]).toBe(1);
    expect([...bytes.subarray(1, 65)]).toEqual(new Array(64).fill(0));
    expect([...bytes.subarray(65, 68)]).toEqual([1, 0, 9]);
    const message = Transaction.from(bytes).compileMessage();
    expect(message.accountKeys.map((k) => k.toBase58())).toEqual([
      OWNER,
      "228DwbHZpgC9ybBEL71wC9e15eWju5HqJBuPytFi5wTk",
      "3hAeKRCU9LMrnHZBzJ8YzbHSjJXEV73oaW8s81MWpY95",
      "7MpAkusYvZ24k6enyFUjYj7nPAmtZRPj5YTY5UvB14w9",
      "ArcUsvW3PNMmfTK9u7nntjwpbg8dkvAMxGzoYD2LENjX",
      "11111111111111111111111111111111",
      "33m47vH6Eav6jr5Ry86XjhRft2jRBLDnDgPSHoquXi2Z",
      "56K3aq1AL6rLUCx9uuqZqEWEMtjfWHg19vp67Meko4he",
      "58PwtjSDuFHuUkYjH9BYnnQKHfwo9reZhC2zMJv9JPkx",
      "6HAuqASbHEh4w4REJEUUUCginTLfj1kwCh215ZLtMkrT",
      "jCebN34bUfdeUYJT13J1yG16XWQpt5PDx6Mse9GUqhR",
      "namesLPneVptA9Z5rqUDD9tMTWEJwofgaYwp8cawRkX",
      "SysvarRent111111111111111111111111111111111",
      "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",
    ]);
    expect(message.recentBlockhash).toBe(VECTOR_BLOCKHASH);
    expect(bytes.equals(web3Serialize(OWNER, listOf(await register(EXAMPLE)), VECTOR_BLOCKHASH))).toBe(true);
  });

  it("create-subdomain team.example by its owner: rent(96) = 1,559,040, both instructions, header [1,0,6]", async () => {
    const [create, reverse, ...rest] = listOf(await createSubdomain(`owner=${OWNER}&subdomain=team.example`));
    expect(rest).toEqual([]);
    expect(create!.data).toBe("ACAAAACfECt9JWq2e7TTRg6kS9bxo4VqmXxmkfy+Dz7TWScJ+QDKFwAAAAAAAAAAAA==");
    expect(create!.keys.map((k) => [k.pubkey, k.isSigner, k.isWritable])).toEqual([
      ["11111111111111111111111111111111", false, false],
      [OWNER, true, true],
      ["5CuBQdihF4uHE2ne73NtrvfNnrskpqzNrKtqkLESbj4A", false, true],
      [OWNER, false, false],
      ["11111111111111111111111111111111", false, false],
      ["3hAeKRCU9LMrnHZBzJ8YzbHSjJXEV73oaW8s81MWpY95", false, false],
      [OWNER, true, false],
    ]);
    expect(reverse!.data).toBe("DAUAAAAAdGVhbQ==");
    expect(reverse!.keys.map((k) => [k.pubkey, k.isSigner, k.isWritable])).toEqual([
      ["namesLPneVptA9Z5rqUDD9tMTWEJwofgaYwp8cawRkX", false, false],
      ["58PwtjSDuFHuUkYjH9BYnnQKHfwo9reZhC2zMJv9JPkx", false, false],
      ["CQwfkuw4rScFgtm5XTKN55wzzyg3gbHsTYhE8nGYPhn8", false, true],
      ["11111111111111111111111111111111", false, false],
      ["33m47vH6Eav6jr5Ry86XjhRft2jRBLDnDgPSHoquXi2Z", false, false],
      [OWNER, true, true],
      ["SysvarRent111111111111111111111111111111111", false, false],
      ["3hAeKRCU9LMrnHZBzJ8YzbHSjJXEV73oaW8s81MWpY95", false, true],
      [OWNER, true, true],
    ]);
    stack.localnet.setFault(vectorBlockhash);
    const bytes = bytesOf(await createSubdomain(`owner=${OWNER}&subdomain=team.example&serialize=true`));
    expect([...bytes.subarray(65, 68)]).toEqual([1, 0, 6]);
    stack.localnet.setFault(null);
    expect(
      bytes.equals(
        web3Serialize(OWNER, listOf(await createSubdomain(`owner=${OWNER}&subdomain=team.example`)), VECTOR_BLOCKHASH),
      ),
    ).toBe(true);
  });
});

describe("rent", () => {
  it("takes rent from the RPC: a cluster at today's 5,080 lamports a byte gets rent(96) = 1,137,920", async () => {
    const today = new Ledger();
    for (const { address, account } of buildDomainAccounts({ name: "example", owner: OWNER }))
      today.setAccount(address, account);
    const current = await startStack(today);
    try {
      const [create] = listOf(await current.get(`/create-subdomain?owner=${OWNER}&subdomain=team.example`));
      // The create instruction: tag, the hashed name (u32 length + 32 bytes), then the lamports (u64).
      expect(Buffer.from(create!.data, "base64").readBigUInt64LE(37)).toBe(BigInt((128 + 96) * 5_080));
    } finally {
      await current.close();
    }
  });
});

describe("query validation, as upstream's schemas", () => {
  it.each([
    ["buyer not base58", `buyer=abc&domain=example&space=1`],
    ["buyer missing", `domain=example&space=1`],
    ["buyer with a space (not trimmed)", `buyer=%20${OWNER}&domain=example&space=1`],
    ["empty referrer", `${EXAMPLE}&referrer=`],
    ["empty mint", `${EXAMPLE}&mint=`],
    ["referrer not a key", `${EXAMPLE}&referrer=abc`],
    ["two labels", `buyer=${OWNER}&domain=a.example&space=1`],
    ["a TLD", `buyer=${OWNER}&domain=example.sns&space=1`],
    ["empty domain", `buyer=${OWNER}&domain=&space=1`],
    ["blank domain", `buyer=${OWNER}&domain=%20%20&space=1`],
    ["domain missing", `buyer=${OWNER}&space=1`],
    ["space missing", `buyer=${OWNER}&domain=example`],
    ["space 1.5", `buyer=${OWNER}&domain=example&space=1.5`],
    ["space -1", `buyer=${OWNER}&domain=example&space=-1`],
    ["space 10001", `buyer=${OWNER}&domain=example&space=10001`],
    ["space abc", `buyer=${OWNER}&domain=example&space=abc`],
    ["space Infinity", `buyer=${OWNER}&domain=example&space=Infinity`],
    ["space first value invalid", `buyer=${OWNER}&domain=example&space=abc&space=5`],
    ["serialize=1", `${EXAMPLE}&serialize=1`],
    ["serialize=TRUE", `${EXAMPLE}&serialize=TRUE`],
    ["empty serialize", `${EXAMPLE}&serialize=`],
    ["a mint without a Pyth feed", `${EXAMPLE}&mint=${OTHER}`],
  ])("register: %s → 400", async (_, query) => {
    const answer = await register(query);
    expect(outcome(answer)).toEqual(invalid);
    expect(answer.headers.get("cache-control")).toBe("no-store");
  });

  it.each([
    ["surrounding spaces and upper case", `buyer=${OWNER}&domain=%20ExAmple%20&space=1000`],
    ["space 1e3", `buyer=${OWNER}&domain=example&space=1e3`],
    ["space 1000.0", `buyer=${OWNER}&domain=example&space=1000.0`],
    ["space 0x3e8", `buyer=${OWNER}&domain=example&space=0x3e8`],
    ["space ' 1000 '", `buyer=${OWNER}&domain=example&space=%201000%20`],
    ["first value of a repeated key", `buyer=${OWNER}&domain=example&space=1000&space=abc&buyer=abc`],
    ["unknown keys ignored", `${EXAMPLE}&foo=bar&serialize=false`],
    ["an unknown referrer ignored", `${EXAMPLE}&referrer=${OTHER}`],
    ["USDC named", `${EXAMPLE}&mint=EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v`],
  ])("register: %s → the same answer as the plain request", async (_, query) => {
    expect(outcome(await register(query))).toEqual(outcome(await register(EXAMPLE)));
  });

  it("space= is 0, 0x10 is 16", async () => {
    expect(listOf(await register(`buyer=${OWNER}&domain=example&space=`))[0]!.data).toBe(
      Buffer.from([20, 7, 0, 0, 0, ...Buffer.from("example"), 0, 0, 0, 0, 0]).toString("base64"),
    );
    expect(listOf(await register(`buyer=${OWNER}&domain=example&space=0x10`))[0]!.data).toBe(
      Buffer.from([20, 7, 0, 0, 0, ...Buffer.from("example"), 16, 0, 0, 0, 0]).toString("base64"),
    );
  });

  it("inner spaces and emoji are labels like any other", async () => {
    for (const label of ["ex ample", "😀🚀", "名前"]) {
      const [ix] = listOf(await register(`buyer=${OWNER}&domain=${encodeURIComponent(label)}&space=0`));
      const text = Buffer.from(label);
      expect(Buffer.from(ix!.data, "base64").subarray(1, 5 + text.length)).toEqual(
        Buffer.concat([Buffer.from([text.length, 0, 0, 0]), text]),
      );
    }
  });

  it("each of the 11 payment mints is accepted, with its own Pyth feed and vault", async () => {
    for (const { mint, feedAccount, vault } of PAYMENT_MINTS) {
      const [ix] = listOf(await register(`${EXAMPLE}&mint=${mint}`));
      expect(ix!.keys[10]!.pubkey).toBe(feedAccount);
      expect(ix!.keys[11]!.pubkey).toBe(vault);
    }
  });

  it.each([
    ["owner not base58", `owner=abc&subdomain=team.example`],
    ["owner missing", `subdomain=team.example`],
    ["one label", `owner=${OWNER}&subdomain=example`],
    ["three labels", `owner=${OWNER}&subdomain=a.team.example`],
    ["an empty label", `owner=${OWNER}&subdomain=.example`],
    ["subdomain missing", `owner=${OWNER}`],
    ["serialize=yes", `owner=${OWNER}&subdomain=team.example&serialize=yes`],
  ])("create-subdomain: %s → 400", async (_, query) => {
    expect(outcome(await createSubdomain(query))).toEqual(invalid);
  });

  it("create-subdomain: trims and lowercases, ignores space and unknown keys, takes a repeated key's first value", async () => {
    const plain = outcome(await createSubdomain(`owner=${OWNER}&subdomain=team.example`));
    expect(plain.status).toBe(200);
    for (const query of [
      `owner=${OWNER}&subdomain=%20TEAM.Example%20`,
      `owner=${OWNER}&subdomain=team.example&space=5000&x=1`,
      `owner=${OWNER}&subdomain=team.example&subdomain=bad&owner=abc&serialize=false`,
    ]) {
      expect(outcome(await createSubdomain(query)), query).toEqual(plain);
    }
  });

  it("the rpc parameter is checked on both routes, even when nothing is read", async () => {
    for (const path of [`/register?${EXAMPLE}`, `/create-subdomain?owner=${OWNER}&subdomain=team.example`]) {
      for (const rpc of ["https://127.0.0.1/", "http://rpc.example.com/", "https://localhost/"]) {
        const answer = await stack.get(`${path}&rpc=${encodeURIComponent(rpc)}`);
        expect(outcome(answer), `${path} ${rpc}`).toEqual(invalid);
      }
    }
  });
});

describe("what is read", () => {
  const reads = async (path: string) => {
    const before = stack.localnet.stats;
    const answer = await stack.get(path);
    const after = stack.localnet.stats;
    const methods = Object.fromEntries(
      Object.entries(after.methods)
        .map(([method, n]) => [method, n - (before.methods[method] ?? 0)] as const)
        .filter(([, n]) => n > 0),
    );
    return { answer, httpRequests: after.httpRequests - before.httpRequests, methods };
  };

  it("register reads nothing without serialize, and one blockhash with it", async () => {
    expect(await reads(`/register?${EXAMPLE}`)).toMatchObject({ httpRequests: 0, methods: {} });
    expect(await reads(`/register?${EXAMPLE}&serialize=true`)).toMatchObject({
      httpRequests: 1,
      methods: { getLatestBlockhash: 1 },
    });
  });

  it("create-subdomain reads the parent, the reverse, the rent and the blockhash in ONE batch", async () => {
    expect(await reads(`/create-subdomain?owner=${OWNER}&subdomain=team.example`)).toMatchObject({
      httpRequests: 1,
      methods: { getMultipleAccounts: 1, getMinimumBalanceForRentExemption: 1 },
    });
    expect(await reads(`/create-subdomain?owner=${OWNER}&subdomain=team.example&serialize=true`)).toMatchObject({
      httpRequests: 1,
      methods: { getMultipleAccounts: 1, getMinimumBalanceForRentExemption: 1, getLatestBlockhash: 1 },
    });
  });

  it("register without serialize works with no RPC configured; with it, 500 as any RPC route", async () => {
    const bare = await startTestGateway({});
    try {
      expect(outcome(await request(bare.url, `/register?${EXAMPLE}`))).toEqual(outcome(await register(EXAMPLE)));
      expect(outcome(await request(bare.url, `/register?${EXAMPLE}&rpc=https://127.0.0.1/`))).toEqual(invalid);
      expect(outcome(await request(bare.url, `/register?${EXAMPLE}&serialize=true`))).toEqual({
        status: 500,
        body: error("Internal error"),
      });
      expect((await request(bare.url, `/create-subdomain?owner=${OWNER}&subdomain=team.example`)).status).toBe(500);
    } finally {
      await bare.close();
    }
  });
});

describe("transaction size", () => {
  /** web3.js's verdict on the serialized form of the route's list: the bytes, or its refusal. */
  const web3Verdict = (list: InstructionJson[], payer: string, blockhash: string) => {
    try {
      return web3Serialize(payer, list, blockhash).toString("base64");
    } catch (thrown) {
      return (thrown as Error).message.startsWith("Transaction too large")
        ? "too large"
        : `threw ${(thrown as Error).message}`;
    }
  };

  it("a name too long for one transaction: the list as upstream, the serialized form 400 (upstream: 500)", async () => {
    stack.localnet.setFault({ ...vectorBlockhash, times: undefined });
    try {
      const verdicts = new Map<string, number[]>();
      // The registration's wire size grows by one byte a label byte: the limit falls in this range.
      for (let length = 560; length <= 720; length += 1) {
        const query = `buyer=${OWNER}&domain=${"a".repeat(length)}&space=0`;
        const list = listOf(await register(query));
        const expected = web3Verdict(list, OWNER, VECTOR_BLOCKHASH);
        const answer = await register(`${query}&serialize=true`);
        if (expected === "too large") expect(outcome(answer), `length ${length}`).toEqual(invalid);
        else expect(outcome(answer), `length ${length}`).toEqual({ status: 200, body: ok(expected) });
        const key = expected === "too large" ? "too large" : "fits";
        verdicts.set(key, [...(verdicts.get(key) ?? []), length]);
      }
      expect([...verdicts.keys()].sort()).toEqual(["fits", "too large"]);
    } finally {
      stack.localnet.setFault(null);
    }
  });
});

describe("chain state", () => {
  /** Signature slots, checked against the message header's count of required signatures. */
  const signersOf = (bytes: Buffer) => {
    const count = bytes[0]!;
    expect(bytes[1 + 64 * count]).toBe(count);
    return count;
  };

  it("a reverse account that exists, even with no data, is not created again", async () => {
    const list = listOf(await createSubdomain(`owner=${OWNER}&subdomain=team.reversed`));
    expect(list.map((ix) => ix.programId)).toEqual(["namesLPneVptA9Z5rqUDD9tMTWEJwofgaYwp8cawRkX"]);
  });

  it("a parent owned by someone else signs too: two signatures", async () => {
    const list = listOf(await createSubdomain(`owner=${OWNER}&subdomain=team.foreign`));
    expect(list[0]!.keys[6]).toEqual({ isSigner: true, isWritable: false, pubkey: OTHER });
    expect(signersOf(bytesOf(await createSubdomain(`owner=${OWNER}&subdomain=team.foreign&serialize=true`)))).toBe(2);
  });

  it("a tokenized parent: its registry owner (the tokenizer's record) signs, not the NFT holder", async () => {
    const list = listOf(await createSubdomain(`owner=${OWNER}&subdomain=team.art`));
    expect(list[0]!.keys[6]).toEqual({
      isSigner: true,
      isWritable: false,
      pubkey: deriveNftRecordKey(deriveDomainKey("art")),
    });
    expect(signersOf(bytesOf(await createSubdomain(`owner=${OWNER}&subdomain=team.art&serialize=true`)))).toBe(2);
  });

  it("a missing parent is 404 Domain not found; an undecodable one 422", async () => {
    expect(outcome(await createSubdomain(`owner=${OWNER}&subdomain=team.nobody`))).toEqual({
      status: 404,
      body: error("Domain not found"),
    });
    expect(outcome(await createSubdomain(`owner=${OWNER}&subdomain=team.short&serialize=true`))).toEqual({
      status: 422,
      body: error("Record is malformed"),
    });
  });

  it("the answer's blockhash is the RPC's", async () => {
    const message = Transaction.from(bytesOf(await register(`${EXAMPLE}&serialize=true`)));
    const latest = (await await fetch(stack.localnet.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "getLatestBlockhash",
        params: [{ commitment: "processed" }],
      }),
    }).then((r) => r.json())) as { result: { value: { blockhash: string } } };
    expect(message.recentBlockhash).toBe(latest.result.value.blockhash);
  });
});

describe("every RPC fault on every read → 502 RPC unavailable, never a 200", () => {
  const FAULTS: [string, Fault][] = [
    ["JSON-RPC error", { kind: "jsonrpc-error", code: -32005, message: "node is behind" }],
    ["HTTP 503", { kind: "http-status", status: 503 }],
    ["HTTP 429", { kind: "http-status", status: 429 }],
    ["garbage", { kind: "garbage" }],
    ["malformed result", { kind: "malformed-result" }],
    ["wrong result type", { kind: "malformed-result", result: -1 }],
  ];
  const READS: [string, string][] = [
    ["getLatestBlockhash", `/register?${EXAMPLE}&serialize=true`],
    ["getLatestBlockhash", `/create-subdomain?owner=${OWNER}&subdomain=team.example&serialize=true`],
    ["getMinimumBalanceForRentExemption", `/create-subdomain?owner=${OWNER}&subdomain=team.example`],
    ["getMultipleAccounts", `/create-subdomain?owner=${OWNER}&subdomain=team.example`],
  ];

  it.each(FAULTS)("%s", async (_, fault) => {
    for (const [method, path] of READS) {
      stack.localnet.setFault({ ...fault, method });
      const answer = await stack.get(path);
      expect(outcome(answer), `${method} ${path}`).toEqual({ status: 502, body: error("RPC unavailable") });
      expect(answer.headers.get("cache-control")).toBe("no-store");
      expect(answer.headers.get("access-control-allow-origin")).toBe("*");
    }
  });

  it("no answer within RPC_TIMEOUT_MS, and a refused connection", async () => {
    const slow = await startStack(ledger, { RPC_TIMEOUT_MS: "300" });
    const closed = await startLocalnet({ ledger: new Ledger() });
    await closed.close();
    const refused = await startTestGateway({ RPC_URL: closed.url });
    try {
      for (const [method, path] of READS) {
        slow.localnet.setFault({ kind: "hang", method });
        expect(outcome(await slow.get(path)), `hang ${method} ${path}`).toEqual({
          status: 502,
          body: error("RPC unavailable"),
        });
        expect(outcome(await request(refused.url, path)), `refused ${path}`).toEqual({
          status: 502,
          body: error("RPC unavailable"),
        });
      }
    } finally {
      await slow.close();
      await refused.close();
    }
  });
});

describe("a serialized transaction decodes the same with web3.js 1.x and @solana/kit", () => {
  it.each([
    [
      "register with a referrer, paid in BONK",
      `/register?${EXAMPLE}&referrer=${SOLFLARE}&mint=DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263`,
    ],
    ["create-subdomain under a foreign parent", `/create-subdomain?owner=${OWNER}&subdomain=team.foreign`],
  ])("%s", async (_, path) => {
    const list = listOf(await stack.get(path));
    const bytes = bytesOf(await stack.get(`${path}&serialize=true`));

    const web3 = Transaction.from(bytes).instructions.map((ix) => ({
      programId: ix.programId.toBase58(),
      accounts: ix.keys.map((k) => [k.pubkey.toBase58(), k.isSigner, k.isWritable]),
      data: ix.data.toString("base64"),
    }));
    const compiled = getCompiledTransactionMessageDecoder().decode(getTransactionDecoder().decode(bytes).messageBytes);
    const decompiled: readonly KitInstruction[] = decompileTransactionMessage(compiled).instructions;
    const kit = decompiled.map((ix) => ({
      programId: ix.programAddress,
      accounts: (ix.accounts ?? []).map((meta) => [
        meta.address,
        meta.role === AccountRole.READONLY_SIGNER || meta.role === AccountRole.WRITABLE_SIGNER,
        meta.role === AccountRole.WRITABLE || meta.role === AccountRole.WRITABLE_SIGNER,
      ]),
      data: Buffer.from(ix.data ?? []).toString("base64"),
    }));
    expect(kit).toEqual(web3);
    // The same programs, accounts and data as the instruction list (flags merged per account by the message).
    expect(
      web3.map(({ programId, accounts, data }) => ({ programId, keys: accounts.map(([key]) => key), data })),
    ).toEqual(list.map((ix) => ({ programId: ix.programId, keys: ix.keys.map((k) => k.pubkey), data: ix.data })));
  });
});

it("405 for other methods, CORS preflight answered", async () => {
  for (const path of ["/register", "/create-subdomain"]) {
    expect((await stack.get(path, { method: "POST" })).status).toBe(405);
    const preflight = await stack.get(path, {
      method: "OPTIONS",
      headers: { origin: "https://wallet.example", "access-control-request-method": "GET" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
  }
});

// The log line's RPC tally is what the request asked of its endpoint; on workerd the lines go to console.log.
describeOnNode("request log", () => {
  it("one line per request with the route pattern and its reads, never the rpc parameter", async () => {
    const log = captureLog();
    const config = loadConfig({
      RPC_URL: stack.localnet.url,
      PORT: "0",
      HOST: "127.0.0.1",
      ALLOW_PRIVATE_RPC_OVERRIDE: "true",
    });
    const gateway = await startGateway(config, log.logger);
    const logged = async (path: string) => {
      log.clear();
      await request(gateway.url, path);
      await new Promise((resolve) => setImmediate(resolve));
      const lines = log.lines().filter((line) => line.msg === "request");
      expect(lines).toHaveLength(1);
      return lines[0];
    };
    try {
      expect(await logged(`/register?${EXAMPLE}`)).toMatchObject({ route: "/register", status: 200, rpcCalls: 0 });
      expect(await logged(`/register?${EXAMPLE}&serialize=true`)).toMatchObject({
        route: "/register",
        rpcCalls: 1,
        rpcAccounts: 0,
      });
      expect(await logged(`/create-subdomain?owner=${OWNER}&subdomain=team.example&serialize=true`)).toMatchObject({
        route: "/create-subdomain",
        status: 200,
        rpcCalls: 3,
        rpcAccounts: 2,
      });
      const override = `rpc=${encodeURIComponent(`${stack.localnet.url}?api-key=secret`)}`;
      expect(await logged(`/create-subdomain?owner=${OWNER}&subdomain=team.nobody&${override}`)).toMatchObject({
        status: 404,
        rpcOverride: true,
      });
      expect(log.text()).not.toContain("secret");
    } finally {
      await gateway.close();
    }
  });
});
