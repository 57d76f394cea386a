import {
  type Base58EncodedBytes,
  SOLANA_ERROR__JSON_RPC__INVALID_PARAMS,
  address,
  createSolanaRpc,
  isSolanaError,
} from "@solana/kit";
import { Connection, PublicKey, SolanaJSONRPCError } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NAME_PROGRAM_ID, SNS_ROOT_DOMAIN, TOKEN_PROGRAM_ID } from "../../src/sns/constants.js";
import { deriveDomainKey, deriveTokenizedMint } from "../../src/sns/derive.js";
import {
  GENESIS_HASH,
  type Localnet,
  SOLANA_CORE_VERSION,
  associatedTokenAddress,
  blockhashAt,
  identity,
} from "../../src/localnet/index.js";
import { startDemoLocalnet } from "./helpers.js";

let localnet: Localnet;
beforeAll(async () => {
  localnet = await startDemoLocalnet();
});
afterAll(() => localnet.close());

const base58 = (text: string) => text as Base58EncodedBytes;
const BONFIDA = deriveDomainKey("bonfida");
const MINT = deriveTokenizedMint(BONFIDA);
const CAROL_ATA = associatedTokenAddress(identity("carol").address, MINT);
const UNMINTED_MINT = deriveTokenizedMint(deriveDomainKey("unminted"));
const ALICE_TOP_LEVEL = [
  "bonfida",
  "v2-sol",
  "stale-v2",
  "v1-sol",
  "bad-v1-sig",
  "burned-nft",
  "unminted",
  "invalid-roa",
  "wrong-validation",
  "malformed-sol",
].map((name) => deriveDomainKey(name));

describe("@solana/web3.js v1 Connection", () => {
  const connection = () => new Connection(localnet.url, "processed");

  it("getAccountInfo and getMultipleAccountsInfo", async () => {
    const info = await connection().getAccountInfo(new PublicKey(BONFIDA));
    expect(info?.owner.toBase58()).toBe(NAME_PROGRAM_ID);
    expect(info?.data).toEqual(Buffer.from(localnet.ledger.getAccount(BONFIDA)!.data));
    expect(info?.rentEpoch).toBe(2 ** 64);
    const missing = new PublicKey(identity("nobody").address);
    const many = await connection().getMultipleAccountsInfo([missing, new PublicKey(BONFIDA)]);
    expect(many[0]).toBeNull();
    expect(many[1]?.data.length).toBe(1096);
  });

  it("getParsedAccountInfo falls back to base64 data", async () => {
    const parsed = await connection().getParsedAccountInfo(new PublicKey(BONFIDA));
    expect(Buffer.isBuffer(parsed.value?.data)).toBe(true);
  });

  it("getTokenLargestAccounts, and -32602 surfaced as SolanaJSONRPCError", async () => {
    const largest = await connection().getTokenLargestAccounts(new PublicKey(MINT));
    expect(largest.value).toEqual([
      { address: new PublicKey(CAROL_ATA), amount: "1", decimals: 0, uiAmount: 1, uiAmountString: "1" },
    ]);
    const error = await connection()
      .getTokenLargestAccounts(new PublicKey(UNMINTED_MINT))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SolanaJSONRPCError);
    expect(error).toMatchObject({ code: -32602 });
    const notMint = await connection()
      .getTokenLargestAccounts(new PublicKey(BONFIDA))
      .catch((e: unknown) => e);
    expect(notMint).toMatchObject({ code: -32602, message: expect.stringContaining("not a Token mint") });
  });

  it("getSlot, getLatestBlockhash, getVersion, getBalance, rent, epoch, genesis", async () => {
    const c = connection();
    expect(await c.getSlot("finalized")).toBe(300_000_000);
    const { blockhash, lastValidBlockHeight } = await c.getLatestBlockhash();
    expect(blockhash).toBe(blockhashAt(300_000_000));
    expect(lastValidBlockHeight).toBe(300_000_150);
    expect(await c.getVersion()).toEqual({ "solana-core": SOLANA_CORE_VERSION, "feature-set": expect.any(Number) });
    // Today's mainnet rent: 5,080 lamports a byte (it was 6,960 before the cluster lowered it).
    expect(await c.getBalance(new PublicKey(BONFIDA))).toBe((128 + 1096) * 5080);
    expect(await c.getMinimumBalanceForRentExemption(165)).toBe(1_488_440);
    expect((await c.getEpochInfo()).epoch).toBe(694);
    expect(await c.getGenesisHash()).toBe(GENESIS_HASH);
  });

  it("getProgramAccounts with memcmp, dataSize and dataSlice", async () => {
    const accounts = await connection().getProgramAccounts(new PublicKey(NAME_PROGRAM_ID), {
      filters: [
        { memcmp: { offset: 32, bytes: identity("alice").address } },
        { memcmp: { offset: 0, bytes: SNS_ROOT_DOMAIN } },
        { dataSize: 1096 },
      ],
      dataSlice: { offset: 0, length: 0 },
    });
    expect(accounts.map((a) => a.pubkey.toBase58()).sort()).toEqual([...ALICE_TOP_LEVEL].sort());
    expect(accounts.every((a) => a.account.data.length === 0)).toBe(true);
  });

  it("getProgramAccounts withContext and base64 memcmp", async () => {
    const amountOne = Buffer.from([1, 0, 0, 0, 0, 0, 0, 0]).toString("base64");
    const result = await connection().getProgramAccounts(new PublicKey(TOKEN_PROGRAM_ID), {
      withContext: true,
      filters: [
        { dataSize: 165 },
        { memcmp: { offset: 32, bytes: identity("carol").address } },
        { memcmp: { offset: 64, bytes: amountOne, encoding: "base64" } },
      ],
      dataSlice: { offset: 0, length: 32 },
    });
    expect(result.context.slot).toBe(300_000_000);
    const mints = result.value.map((a) => new PublicKey(a.account.data).toBase58()).sort();
    expect(mints).toEqual([MINT, deriveTokenizedMint(deriveDomainKey("redeemed"))].sort());
  });
});

describe("@solana/kit createSolanaRpc", () => {
  const rpc = () => createSolanaRpc(localnet.url);

  it("getAccountInfo with base64, u64::MAX rentEpoch as an exact bigint", async () => {
    const { context, value } = await rpc().getAccountInfo(address(BONFIDA), { encoding: "base64" }).send();
    expect(context.slot).toBe(300_000_000n);
    expect(value?.owner).toBe(NAME_PROGRAM_ID);
    // kit's types leave rentEpoch out; the parsed value must still be exact.
    expect((value as unknown as { rentEpoch: bigint }).rentEpoch).toBe(18446744073709551615n);
    expect(value?.space).toBe(1096n);
    expect(Buffer.from(value!.data[0], "base64")).toEqual(Buffer.from(localnet.ledger.getAccount(BONFIDA)!.data));
  });

  it("getMultipleAccounts", async () => {
    const { value } = await rpc()
      .getMultipleAccounts([address(BONFIDA), address(identity("nobody").address)], { encoding: "base64" })
      .send();
    expect(value[0]?.lamports).toBe(BigInt((128 + 1096) * 5080)); // today's mainnet rent rate
    expect(value[1]).toBeNull();
  });

  it("getTokenLargestAccounts and its -32602", async () => {
    const { value } = await rpc().getTokenLargestAccounts(address(MINT)).send();
    expect(value).toEqual([{ address: CAROL_ATA, amount: "1", decimals: 0, uiAmount: 1, uiAmountString: "1" }]);
    const error = await rpc()
      .getTokenLargestAccounts(address(UNMINTED_MINT))
      .send()
      .catch((e: unknown) => e);
    expect(isSolanaError(error, SOLANA_ERROR__JSON_RPC__INVALID_PARAMS)).toBe(true);
  });

  it("getProgramAccounts with filters and dataSlice", async () => {
    const accounts = await rpc()
      .getProgramAccounts(address(NAME_PROGRAM_ID), {
        encoding: "base64",
        dataSlice: { offset: 0, length: 0 },
        filters: [
          { memcmp: { offset: 32n, bytes: base58(identity("alice").address), encoding: "base58" } },
          { memcmp: { offset: 0n, bytes: base58(SNS_ROOT_DOMAIN), encoding: "base58" } },
        ],
      })
      .send();
    expect(accounts.map((a) => a.pubkey).sort()).toEqual([...ALICE_TOP_LEVEL].sort());
  });

  it("getSlot, getLatestBlockhash, getVersion, getHealth", async () => {
    expect(await rpc().getSlot({ commitment: "finalized" }).send()).toBe(300_000_000n);
    const { value } = await rpc().getLatestBlockhash().send();
    expect(value.blockhash).toBe(blockhashAt(300_000_000));
    expect(value.lastValidBlockHeight).toBe(300_000_150n);
    expect((await rpc().getVersion().send())["solana-core"]).toBe(SOLANA_CORE_VERSION);
    expect(await rpc().getHealth().send()).toBe("ok");
  });
});
