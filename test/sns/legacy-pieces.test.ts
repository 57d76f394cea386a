import { base64, base64url } from "@scure/base";
import { describe, expect, it } from "vitest";
import { SnsError } from "../../src/sns/errors.js";
import { type Address } from "@solana/kit";
import { deriveDomainKey, deriveRecordV1Key } from "../../src/sns/derive.js";
import { parseLegacyName } from "../../src/sns/legacy-name.js";
import { RECORD_V1_SIZE, recordV1Body } from "../../src/sns/record-v1-body.js";
import { RECORD_TYPES } from "../../src/sns/record-types.js";
import { bufferJson, legacyTransactionAnswer } from "../../src/sns/transaction/legacy-answer.js";
import { transactionAnswer } from "../../src/sns/transaction/answer.js";
import { registerInstructions } from "../../src/sns/instructions/register-v2.js";
import { USDC_MINT } from "../../src/sns/instructions/payment-mints.js";
import {
  TWITTER_ROOT_PARENT_REGISTRY,
  TWITTER_VERIFICATION_AUTHORITY,
  decodeReverseTwitterRegistry,
  deriveReverseTwitterRegistryKey,
  deriveTwitterRegistryKey,
} from "../../src/sns/twitter.js";
import { PublicKey } from "@solana/web3.js";
import { NAME_PROGRAM_ID } from "../../src/sns/constants.js";
import { transferNameInstruction } from "../../src/sns/instructions/transfer.js";
import { sdk } from "../../testkit/sdk.js";
import { createRng, freshSeed } from "../../testkit/rng.js";

// The pure pieces of the legacy profile: its names, V1 record keys and bodies, Twitter registry keys, and the
// legacy text of a transaction answer; keys are checked against the official SDK 3.0.26.

const BUYER = "Fxuoy3gFjfJALhwkRcuKjRdechcgffUApeYAfMWck6w8" as Address;

describe("parseLegacyName", () => {
  it.each([
    ["x", ".sns", "x"],
    ["sub.x", ".sns", "sub.x"],
    ["x.sns", ".sns", "x"],
    ["x.sol", ".sol", "x"],
    ["sub.x.sol", ".sol", "sub.x"],
    ["x.sol.sol", ".sol", "x.sol"],
    ["X", ".sns", "X"],
    [" x", ".sns", " x"],
    ["x.skr", ".sns", "x.skr"],
  ])("%s → %s name %s (untrimmed, case kept)", (raw, tld, name) => {
    expect(parseLegacyName(raw)).toMatchObject({ tld, name });
  });

  it.each(["", "a.b.c", "x.", ".x", ".sns", "a.b.c.sol"])("%j is refused", (raw) => {
    expect(() => parseLegacyName(raw)).toThrow(SnsError);
  });
});

describe("V1 records", () => {
  it("record keys equal the SDK's getRecordKeySync for every type, top-level and subdomain", () => {
    for (const name of ["bonfida", "dex.bonfida"]) {
      for (const type of RECORD_TYPES) {
        expect(deriveRecordV1Key(deriveDomainKey(name), type), `${type}.${name}`).toBe(
          sdk.getRecordKeySync(name, type).toBase58(),
        );
      }
    }
  });

  it("bodies are cut to the SDK's RECORD_V1_SIZE; other types keep their whole body", () => {
    expect(Object.fromEntries(RECORD_V1_SIZE)).toEqual(Object.fromEntries(sdk.RECORD_V1_SIZE));
    const account = Uint8Array.from({ length: 96 + 200 }, (_, i) => i % 251);
    expect(recordV1Body("SOL", account)).toEqual(account.subarray(96, 192));
    expect(recordV1Body("A", account)).toEqual(account.subarray(96, 100));
    expect(recordV1Body("url", account)).toEqual(account.subarray(96));
  });
});

describe("Twitter registries", () => {
  it("constants and keys equal the SDK's", async () => {
    expect(TWITTER_ROOT_PARENT_REGISTRY).toBe(sdk.TWITTER_ROOT_PARENT_REGISTRY_KEY.toBase58());
    expect(TWITTER_VERIFICATION_AUTHORITY).toBe(sdk.TWITTER_VERIFICATION_AUTHORITY.toBase58());
    for (const handle of ["bonfida", "solana", "A_b9"]) {
      expect(deriveTwitterRegistryKey(handle)).toBe((await sdk.getTwitterRegistryKey(handle)).toBase58());
    }
    const reverse = sdk.getNameAccountKeySync(
      sdk.getHashedNameSync(BUYER),
      sdk.TWITTER_VERIFICATION_AUTHORITY,
      sdk.TWITTER_ROOT_PARENT_REGISTRY_KEY,
    );
    expect(deriveReverseTwitterRegistryKey(BUYER)).toBe(reverse.toBase58());
  });

  it("a reverse registry decodes to its handle; a cut one is malformed", () => {
    const handle = new TextEncoder().encode("bonfida");
    const data = new Uint8Array(96 + 36 + handle.length);
    data.set(base64.decode(base64.encode(new Uint8Array(32).fill(7))), 96);
    new DataView(data.buffer).setUint32(96 + 32, handle.length, true);
    data.set(handle, 96 + 36);
    expect(decodeReverseTwitterRegistry(data).twitterHandle).toBe("bonfida");
    expect(() => decodeReverseTwitterRegistry(data.subarray(0, data.length - 1))).toThrow(SnsError);
  });
});

describe("legacy transaction answers", () => {
  it("instruction data is URL-safe padded base64 of v1's bytes, over generated registrations", () => {
    const seed = freshSeed();
    const rng = createRng(seed);
    let urlSafeChars = 0;
    for (let i = 0; i < 200; i++) {
      const label = `n${rng.int(0, 1e9).toString(36)}`;
      const instructions = registerInstructions({ label, space: rng.int(0, 10_000), buyer: BUYER, mint: USDC_MINT });
      const v1 = transactionAnswer(BUYER, instructions, undefined) as { data: string }[];
      const legacy = legacyTransactionAnswer(BUYER, instructions, undefined, "base64url") as { data: string }[];
      legacy.forEach((item, j) => {
        expect(base64url.decode(item.data), `seed ${seed}`).toEqual(base64.decode(v1[j]!.data));
        expect(item.data.length % 4).toBe(0);
        if (/[-_]/.test(item.data)) urlSafeChars++;
      });
    }
    expect(urlSafeChars).toBeGreaterThan(0);
  });

  it("a serialized transaction is Buffer JSON of v1's bytes, which Buffer.from(…, 'base64') reads back", () => {
    const instructions = registerInstructions({ label: "example", space: 1000, buyer: BUYER, mint: USDC_MINT });
    const blockhash = "EETubP5AKHgjPAhzPAFcb8BAY1hMH639CWCFTqi3hq1k";
    const v1 = base64.decode(transactionAnswer(BUYER, instructions, blockhash) as string);
    const legacy = legacyTransactionAnswer(BUYER, instructions, blockhash, "base64url");
    expect(legacy).toEqual(bufferJson(v1));
    const viaJson = JSON.parse(JSON.stringify(legacy)) as unknown as string;
    expect(new Uint8Array(Buffer.from(viaJson, "base64"))).toEqual(v1);
  });
});

describe("transferNameInstruction", () => {
  it("equals the SDK's transferInstruction without a class or parent", () => {
    const [account, newOwner] = [deriveDomainKey("team.example"), "3ogYncmMM5CmytsGCqKHydmXmKUZ6sGWvizkzqwT7zb1"];
    const theirs = sdk.transferInstruction(
      new PublicKey(NAME_PROGRAM_ID),
      new PublicKey(account),
      new PublicKey(newOwner),
      new PublicKey(BUYER),
    );
    const ours = transferNameInstruction(account, newOwner as Address, BUYER);
    expect(ours.programId).toBe(theirs.programId.toBase58());
    expect(ours.data).toEqual(new Uint8Array(theirs.data));
    expect(ours.accounts.map((meta) => [meta.address, meta.signer, meta.writable])).toEqual(
      theirs.keys.map((meta) => [meta.pubkey.toBase58(), meta.isSigner, meta.isWritable]),
    );
  });
});
