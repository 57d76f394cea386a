import { createHash } from "node:crypto";
import { ed25519 } from "@noble/curves/ed25519.js";
import type { Address } from "@solana/kit";
import { PublicKey } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { addressToBytes, bytesToAddress, toHex, utf8 } from "../../src/sns/bytes.js";
import {
  CENTRAL_STATE_SNS_RECORDS,
  NAME_OFFERS_ID,
  NAME_PROGRAM_ID,
  NAME_TOKENIZER_ID,
  REVERSE_LOOKUP_CLASS,
  SNS_ROOT_DOMAIN,
  TOKEN_PROGRAM_ID,
} from "../../src/sns/constants.js";
import { isOnCurve } from "../../src/sns/curve.js";
import { deriveDomainKey, findProgramAddress } from "../../src/sns/derive.js";
import {
  DEFAULT_DOMAIN_SPACE,
  FixtureError,
  LOCALNET_PDA_PROGRAM,
  associatedTokenAddress,
  buildDomainAccounts,
  identity,
  loadFixture,
  pdaAddress,
  recordV1SolMessage,
} from "../../src/localnet/index.js";
import { demoFixture } from "./helpers.js";

const BONFIDA = "Crf8hzfthWGbGbLTVCiqRqV5MVnbpHB1L9KQMd6gsinb";
const BONFIDA_SOL_V1 = "5WCZ6uhXPXJ7UrzBvXBnE9biZykq1ezJ6JhYe6CHgA7d";
const BONFIDA_SOL_V2 = "ETARvCjLwjyM6Jux1ndxuXuYEYy56Nf5uvU3abL1WyW6";
const BONFIDA_NFT_RECORD = "ET1ZtHQxL7oii4R4aMqvd2Rqf6cxwwbJZPHJNqSFLWZn";
const BONFIDA_MINT = "4eH4KgXyMEmfJWqXukYNud3vqobGxfFAtDprWf2jLjQE";
const DEX_BONFIDA = "HoFfFXqFHAC8RP3duuQNzag1ieUwJRBv1HtRNiWFq4Qu";
const BONFIDA_REVERSE = "DqgmWxe2PPrfy45Ja3UPyFGwcbRzkRuwXt3NyxjX8krg";
const DEX_BONFIDA_REVERSE = "6tAdEpjsrzHuRqJW3XMXEV7DFyCWW4giW6mW4bgvhcYV";

const ledger = loadFixture(demoFixture);
const key = (data: Uint8Array, offset: number) => bytesToAddress(data.subarray(offset, offset + 32));
const u16 = (data: Uint8Array, offset: number) => data[offset]! | (data[offset + 1]! << 8);
const u64 = (data: Uint8Array, offset: number) =>
  new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(offset, true);

function account(address: string) {
  const found = ledger.getAccount(address);
  if (!found) throw new Error(`no account ${address}`);
  return found;
}

describe("identities", () => {
  it("derive ed25519 keypairs from sha256 of the prefixed name", () => {
    const alice = identity("alice");
    expect(Buffer.from(alice.secretKey)).toEqual(createHash("sha256").update("sns-localnet:alice").digest());
    expect(alice.publicKey).toEqual(ed25519.getPublicKey(alice.secretKey));
    expect(alice.keypairBytes.subarray(32)).toEqual(alice.publicKey);
    expect(identity("alice")).toBe(alice);
    expect(isOnCurve(alice.publicKey)).toBe(true);
  });

  it("PDA references are off the curve", () => {
    expect(isOnCurve(addressToBytes(pdaAddress("treasury")))).toBe(false);
  });
});

describe("demo fixture: bonfida", () => {
  it("lands at the protocol's test-vector addresses", () => {
    for (const address of [BONFIDA, BONFIDA_SOL_V1, BONFIDA_SOL_V2, BONFIDA_NFT_RECORD, BONFIDA_MINT, DEX_BONFIDA]) {
      expect(ledger.getAccount(address), address).toBeDefined();
    }
    expect(ledger.getAccount(BONFIDA_REVERSE)).toBeDefined();
    expect(ledger.getAccount(DEX_BONFIDA_REVERSE)).toBeDefined();
  });

  it("domain account: header under the SNS root, owner, zero class, payload", () => {
    const { data, owner, lamports, executable } = account(BONFIDA);
    expect(owner).toBe(NAME_PROGRAM_ID);
    expect(executable).toBe(false);
    expect(lamports).toBe((128 + data.length) * 5080); // today's mainnet rent rate (6,960 before the cluster lowered it)
    expect(data.length).toBe(96 + DEFAULT_DOMAIN_SPACE);
    expect(key(data, 0)).toBe(SNS_ROOT_DOMAIN);
    expect(key(data, 32)).toBe(identity("alice").address);
    expect(data.subarray(64)).toEqual(new Uint8Array(32 + DEFAULT_DOMAIN_SPACE));
  });

  it("subdomain header points at the parent domain", () => {
    const { data } = account(DEX_BONFIDA);
    expect(key(data, 0)).toBe(BONFIDA);
    expect(key(data, 32)).toBe(identity("bob").address);
  });

  it("V1 SOL record: target and an ed25519 signature over the hex message by the owner", () => {
    const { data, owner } = account(BONFIDA_SOL_V1);
    expect(owner).toBe(NAME_PROGRAM_ID);
    expect(data.length).toBe(192);
    expect(key(data, 0)).toBe(BONFIDA);
    expect(key(data, 32)).toBe(identity("alice").address);
    expect(key(data, 64)).toBe("11111111111111111111111111111111");
    const target = data.subarray(96, 128);
    expect(bytesToAddress(target)).toBe(identity("dave").address);
    const hexMessage = utf8.encode(toHex(new Uint8Array([...target, ...addressToBytes(BONFIDA_SOL_V1)])));
    expect(hexMessage.length).toBe(128);
    expect(recordV1SolMessage(identity("dave").address, BONFIDA_SOL_V1 as Address)).toEqual(hexMessage);
    const signature = data.subarray(128, 192);
    expect(ed25519.verify(signature, hexMessage, identity("alice").publicKey)).toBe(true);
    expect(ed25519.verify(signature, hexMessage.subarray(0, 64), identity("alice").publicKey)).toBe(false);
  });

  it("V2 SOL record: class, validations, ids and content at the V2 layout's offsets", () => {
    const { data } = account(BONFIDA_SOL_V2);
    expect(key(data, 0)).toBe(BONFIDA);
    expect(key(data, 32)).toBe(identity("alice").address);
    expect(key(data, 64)).toBe(CENTRAL_STATE_SNS_RECORDS);
    expect(u16(data, 96)).toBe(1);
    expect(u16(data, 98)).toBe(1);
    expect(new DataView(data.buffer).getUint32(100, true)).toBe(32);
    expect(key(data, 104)).toBe(identity("alice").address);
    expect(key(data, 136)).toBe(identity("erin").address);
    expect(key(data, 168)).toBe(identity("erin").address);
    expect(data.length).toBe(200);
  });

  it("NFT record, mint and holder token account", () => {
    const record = account(BONFIDA_NFT_RECORD);
    expect(record.owner).toBe(NAME_TOKENIZER_ID);
    expect(record.data.length).toBe(98);
    expect(record.data[0]).toBe(2);
    expect(key(record.data, 2)).toBe(BONFIDA);
    expect(key(record.data, 66)).toBe(BONFIDA_MINT);
    // The nonce is the PDA bump: re-deriving with it reproduces the address.
    const seeds = [Buffer.from("nft_record"), Buffer.from(addressToBytes(BONFIDA)), Buffer.from([record.data[1]!])];
    const rederived = PublicKey.createProgramAddressSync(seeds, new PublicKey(NAME_TOKENIZER_ID));
    expect(rederived.toBase58()).toBe(BONFIDA_NFT_RECORD);

    const mint = account(BONFIDA_MINT);
    expect(mint.owner).toBe(TOKEN_PROGRAM_ID);
    expect(mint.data.length).toBe(82);
    expect(u64(mint.data, 36)).toBe(1n);
    expect(mint.data[44]).toBe(0);
    expect(mint.data[45]).toBe(1);

    const ata = associatedTokenAddress(identity("carol").address, BONFIDA_MINT as Address);
    const token = account(ata);
    expect(token.owner).toBe(TOKEN_PROGRAM_ID);
    expect(token.data.length).toBe(165);
    expect(key(token.data, 0)).toBe(BONFIDA_MINT);
    expect(key(token.data, 32)).toBe(identity("carol").address);
    expect(u64(token.data, 64)).toBe(1n);
    expect(token.data[108]).toBe(1);
    expect(ledger.tokenLargestAccounts(BONFIDA_MINT)).toEqual([{ address: ata, amount: 1n }]);
  });

  it("reverse records hold the label, with a NUL prefix for subdomains", () => {
    const top = account(BONFIDA_REVERSE).data;
    expect(key(top, 0)).toBe("11111111111111111111111111111111");
    expect(key(top, 64)).toBe(REVERSE_LOOKUP_CLASS);
    expect(Buffer.from(top.subarray(96)).toString("hex")).toBe("07000000" + Buffer.from("bonfida").toString("hex"));
    const sub = account(DEX_BONFIDA_REVERSE).data;
    expect(key(sub, 0)).toBe(BONFIDA);
    expect(Buffer.from(sub.subarray(100)).toString()).toBe("\0dex");
  });

  it("primary domain accounts point at the chosen name account", () => {
    const address = findProgramAddress(
      [utf8.encode("favourite_domain"), addressToBytes(identity("carol").address)],
      NAME_OFFERS_ID,
    );
    const { data, owner } = account(address);
    expect(owner).toBe(NAME_OFFERS_ID);
    expect(data.length).toBe(33);
    expect(key(data, 1)).toBe(BONFIDA);
  });

  it("the PDA-owned domain's owner account exists under the PDA program", () => {
    const vault = account(deriveDomainKey("vault"));
    expect(key(vault.data, 32)).toBe(pdaAddress("treasury"));
    expect(account(pdaAddress("treasury")).owner).toBe(LOCALNET_PDA_PROGRAM);
  });
});

describe("builders", () => {
  it("infer the RoA kind from the id and default the staleness id to the owner", () => {
    const accounts = buildDomainAccounts({
      name: "records",
      owner: "alice",
      reverse: false,
      space: 0,
      recordsV2: {
        ETH: { content: { hex: "0x" + "11".repeat(20) }, roaId: { hex: "11".repeat(20) } },
        email: "a@b.c",
        bio: { content: "hi", stalenessValidation: 0 },
      },
    });
    expect(accounts).toHaveLength(4);
    const [, eth, email, bio] = accounts.map((a) => a.account.data!);
    expect([u16(eth!, 96), u16(eth!, 98), eth!.length]).toEqual([1, 2, 104 + 32 + 20 + 20]);
    expect([u16(email!, 96), u16(email!, 98)]).toEqual([1, 0]);
    expect(Buffer.from(email!.subarray(136)).toString()).toBe("a@b.c");
    expect([u16(bio!, 96), bio!.length]).toEqual([0, 106]);
  });

  it("burned holders leave a zero-supply mint and no token account", () => {
    const accounts = buildDomainAccounts({ name: "gone", owner: "alice", tokenized: { holder: null } });
    const owners = accounts.map((a) => a.account.owner);
    expect(owners.filter((o) => o === TOKEN_PROGRAM_ID)).toHaveLength(1);
  });
});

describe("fixture validation", () => {
  const rejects = (fixture: unknown, message: RegExp) => {
    expect(() => loadFixture(fixture)).toThrow(FixtureError);
    expect(() => loadFixture(fixture)).toThrow(message);
  };

  it("names the offending field", () => {
    rejects({ domains: [{ name: "a", owner: { bogus: 1 } }] }, /domains\[0\]\.owner/);
    rejects({ domains: [{ name: "a", owner: "alice", spaec: 3 }] }, /Unrecognized key: "spaec"/);
    rejects({ domains: [{ name: "a.b.c", owner: "alice" }] }, /TLD-less name/);
  });

  it("requires subdomain parents and unique names", () => {
    rejects({ domains: [{ name: "dex.bonfida", owner: "bob" }] }, /needs its parent domain bonfida/);
    rejects(
      {
        domains: [
          { name: "a", owner: "bob" },
          { name: "a", owner: "bob" },
        ],
      },
      /listed twice/,
    );
  });

  it("only identities can sign V1 records", () => {
    rejects(
      { domains: [{ name: "a", owner: { pda: "x" }, solRecordV1: { target: "dave" } }] },
      /owner is not a named identity/,
    );
  });

  it("primary domains must point into the fixture", () => {
    rejects({ primaryDomains: { alice: "nowhere" } }, /primaryDomains\.alice: domain nowhere/);
  });

  it("raw accounts replace derived ones", () => {
    const ledger = loadFixture({
      domains: [{ name: "short", owner: "alice" }],
      accounts: [{ address: { domain: "short" }, owner: NAME_PROGRAM_ID, hex: "00ff" }],
    });
    expect(ledger.getAccount(deriveDomainKey("short"))?.data).toEqual(new Uint8Array([0, 255]));
  });
});
