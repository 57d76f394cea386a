import { type Address, getProgramDerivedAddress, getAddressEncoder } from "@solana/kit";
import { PublicKey } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { bytesToAddress, tryDecodePublicKey } from "../../src/sns/bytes.js";
import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  PYTH_PUSH_ORACLE_ID,
  TOKEN_PROGRAM_ID,
  VAULT_OWNER,
} from "../../src/sns/constants.js";
import { findProgramAddress } from "../../src/sns/derive.js";
import { planSubdomain } from "../../src/sns/instructions/create-subdomain.js";
import { PAYMENT_MINTS, USDC_MINT, paymentMint } from "../../src/sns/instructions/payment-mints.js";
import { REFERRERS, referrerIndex } from "../../src/sns/instructions/referrers.js";
import { registerInstructions } from "../../src/sns/instructions/register-v2.js";
import { compileLegacyMessage } from "../../src/sns/transaction/legacy-message.js";
import { expectCode } from "../../testkit/expect-code.js";
import { createRng } from "../../testkit/rng.js";
import { sdk } from "../../testkit/sdk.js";

const hexToBytes = (hex: string) => Uint8Array.from(hex.match(/../g)!.map((byte) => Number.parseInt(byte, 16)));

describe("payment mints and referrers: the official SDK's tables", () => {
  it("the same mints with the same Pyth feed ids", () => {
    const sdkFeeds = Object.fromEntries(
      [...sdk.PYTH_PULL_FEEDS].map(([mint, id]) => [mint, Buffer.from(id).toString("hex")]),
    );
    expect(Object.fromEntries(PAYMENT_MINTS.map((m) => [m.mint, m.feedId]))).toEqual(sdkFeeds);
    expect(paymentMint(USDC_MINT)?.symbol).toBe("USDC");
  });

  it("feed accounts and vaults as stored are derived again (ours, and kit's WebCrypto derivation)", async () => {
    for (const { mint, feedId, feedAccount, vault } of PAYMENT_MINTS) {
      const seeds = [Uint8Array.of(0, 0), hexToBytes(feedId)];
      expect(findProgramAddress(seeds, PYTH_PUSH_ORACLE_ID)).toBe(feedAccount);
      const [kitFeed] = await getProgramDerivedAddress({ programAddress: PYTH_PUSH_ORACLE_ID, seeds });
      expect(kitFeed).toBe(feedAccount);
      const encode = getAddressEncoder();
      const [kitVault] = await getProgramDerivedAddress({
        programAddress: ASSOCIATED_TOKEN_PROGRAM_ID,
        seeds: [encode.encode(VAULT_OWNER), encode.encode(TOKEN_PROGRAM_ID), encode.encode(mint)],
      });
      expect(kitVault).toBe(vault);
    }
    expect(sdk.VAULT_OWNER.toBase58()).toBe(VAULT_OWNER);
  });

  it("the same referrers in the same order", () => {
    expect(REFERRERS).toEqual(sdk.REFERRERS.map((key) => key.toBase58()));
    expect(REFERRERS.map(referrerIndex)).toEqual(REFERRERS.map((_, i) => i));
    expect(referrerIndex(undefined)).toBeUndefined();
    expect(referrerIndex(USDC_MINT)).toBeUndefined();
  });
});

describe("builders refuse what the official SDK refuses", () => {
  const buyer = "Fxuoy3gFjfJALhwkRcuKjRdechcgffUApeYAfMWck6w8" as Address;
  it.each(["", "a.b", "Example", " example", "example "])("register label %j", (label) => {
    expectCode(() => registerInstructions({ label, space: 0, buyer, mint: USDC_MINT }), "INVALID_INPUT");
  });
  it.each([-1, 10_001, 1.5, Number.NaN])("register space %d", (space) => {
    expectCode(() => registerInstructions({ label: "a", space, buyer, mint: USDC_MINT }), "INVALID_INPUT");
  });
  it("a mint without a price feed", () => {
    expectCode(() => registerInstructions({ label: "a", space: 0, buyer, mint: buyer }), "INVALID_INPUT");
  });
  it.each(["example", "a.b.c", ".b", "a."])("subdomain %j", (name) => {
    expectCode(() => planSubdomain(name, 0), "INVALID_INPUT");
  });
});

describe("legacy message account order", () => {
  it("sorts keys as web3.js 1.x localeCompare does, over 3,000 generated keys", () => {
    const rng = createRng(20_261_125);
    const keys = Array.from({ length: 3_000 }, () => bytesToAddress(rng.bytes(32)));
    // Keys differing only in case somewhere, where the collation's case rules decide.
    for (let i = 0; i < 200; i++) {
      const key = rng.pick(keys);
      const at = rng.int(0, key.length - 1);
      const flipped =
        key.slice(0, at) +
        (key[at] === key[at]!.toLowerCase() ? key[at]!.toUpperCase() : key[at]!.toLowerCase()) +
        key.slice(at + 1);
      if (flipped !== key && tryDecodePublicKey(flipped)) keys.push(flipped as Address);
    }
    const program = "11111111111111111111111111111111" as Address;
    const message = compileLegacyMessage(
      program,
      [
        {
          programId: program,
          accounts: keys.map((address) => ({ address, signer: false, writable: true })),
          data: new Uint8Array(),
        },
      ],
      program,
    );
    const web3Order = [...new Set(keys)].sort((a, b) =>
      new PublicKey(a).toBase58().localeCompare(new PublicKey(b).toBase58(), "en", {
        usage: "sort",
        sensitivity: "variant",
        caseFirst: "lower",
        numeric: false,
        ignorePunctuation: false,
      }),
    );
    expect(message.staticAccounts).toEqual([program, ...web3Order]);
  });
});
