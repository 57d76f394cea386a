import { describe, expect, it } from "vitest";
import { addressToBytes, bytesToAddress, utf8 } from "../../src/sns/bytes.js";
import { GUARDIAN_KEY } from "../../src/sns/constants.js";
import { encodeRecordV2Account } from "../../src/sns/layouts/record-v2.js";
import { encodeRecordContent } from "../../src/sns/record-content.js";
import { recordBatchItem, recordResponse } from "../../src/sns/record-response.js";
import { RECORD_TYPES, type RecordType } from "../../src/sns/record-types.js";
import { verifyRecordV2 } from "../../src/sns/record-verify.js";
import { Validation, decodeRecordV2 } from "../../src/sns/layouts/record-v2.js";
import { expectCode } from "../../testkit/expect-code.js";

const key = (fill: number): Uint8Array => new Uint8Array(32).fill(fill);
const REGISTRY_OWNER = key(0x11);
const NFT_HOLDER = key(0x22);
const GUARDIAN = addressToBytes(GUARDIAN_KEY);
const SOL_TARGET = key(0x33);
const EVM_ADDRESS = new Uint8Array(20).fill(0x44);

const { None, Solana, Ethereum, UnverifiedSolana } = Validation;

interface Fixture {
  stalenessValidation?: number;
  stalenessId?: Uint8Array;
  rightOfAssociationValidation?: number;
  roaId?: Uint8Array;
  content: Uint8Array;
}

const verify = (type: RecordType, fixture: Fixture, owner: Uint8Array = REGISTRY_OWNER) =>
  verifyRecordV2(type, decodeRecordV2(encodeRecordV2Account(fixture)), owner);

const fresh = { stalenessValidation: Solana, stalenessId: REGISTRY_OWNER };

describe("staleness", () => {
  const content = utf8.encode("ipfs://x");

  it("is verified when a Solana staleness id is the current owner", () => {
    expect(verify("IPFS", { ...fresh, content }).staleness).toBe(true);
  });

  it("fails for another key", () => {
    expect(verify("IPFS", { stalenessValidation: Solana, stalenessId: key(0x12), content }).staleness).toBe(false);
  });

  it.each([
    ["None", None, new Uint8Array(0)],
    ["UnverifiedSolana", UnverifiedSolana, REGISTRY_OWNER],
    ["Ethereum", Ethereum, REGISTRY_OWNER.subarray(12)],
  ])("fails for a %s staleness validation even when the id matches", (_, stalenessValidation, stalenessId) => {
    expect(verify("IPFS", { stalenessValidation, stalenessId, content }).staleness).toBe(false);
  });

  it("fails for a 20-byte id equal to a zero-padded owner, because the validation is not Solana", () => {
    const owner = new Uint8Array(32);
    owner.set(EVM_ADDRESS, 12);
    const fixture = { stalenessValidation: Ethereum, stalenessId: EVM_ADDRESS, content };
    expect(verify("IPFS", fixture, owner).staleness).toBe(false);
  });

  it("fails for an empty id against the all-zero owner, for the same reason", () => {
    expect(verify("IPFS", { stalenessValidation: None, content }, new Uint8Array(32)).staleness).toBe(false);
  });

  it("holds for an owner with leading zero bytes", () => {
    const owner = new Uint8Array(32);
    owner[31] = 9;
    expect(verify("IPFS", { stalenessValidation: Solana, stalenessId: owner, content }, owner).staleness).toBe(true);
  });

  it("is judged against whichever owner the caller passes: NFT holder for tokenized domains", () => {
    const signedByHolder = { stalenessValidation: Solana, stalenessId: NFT_HOLDER, content };
    expect(verify("IPFS", signedByHolder, NFT_HOLDER).staleness).toBe(true);
    expect(verify("IPFS", signedByHolder, REGISTRY_OWNER).staleness).toBe(false);
    const signedByRegistryOwner = { ...fresh, content };
    expect(verify("IPFS", signedByRegistryOwner, NFT_HOLDER).staleness).toBe(false);
  });
});

describe("right of association", () => {
  describe("SOL (self-signed, Solana)", () => {
    it("holds when the RoA id is the content", () => {
      expect(
        verify("SOL", { ...fresh, rightOfAssociationValidation: Solana, roaId: SOL_TARGET, content: SOL_TARGET }),
      ).toEqual({
        staleness: true,
        roa: true,
      });
    });

    it.each([
      ["UnverifiedSolana", UnverifiedSolana],
      ["None", None],
    ])("fails for a %s RoA validation", (_, validation) => {
      const roaId = validation === None ? new Uint8Array(0) : SOL_TARGET;
      expect(verify("SOL", { rightOfAssociationValidation: validation, roaId, content: SOL_TARGET }).roa).toBe(false);
    });

    it("fails when the RoA id differs, or the content has trailing bytes", () => {
      expect(verify("SOL", { rightOfAssociationValidation: Solana, roaId: key(1), content: SOL_TARGET }).roa).toBe(
        false,
      );
      const trailing = Uint8Array.from([...SOL_TARGET, 0, 0, 0, 0]);
      expect(verify("SOL", { rightOfAssociationValidation: Solana, roaId: SOL_TARGET, content: trailing }).roa).toBe(
        false,
      );
    });

    it("compares lengths exactly: an empty RoA id does not match empty content under Solana validation", () => {
      expect(verify("SOL", { rightOfAssociationValidation: None, content: new Uint8Array(0) }).roa).toBe(false);
    });
  });

  describe.each(["ETH", "BSC", "BASE", "INJ"] as const)("%s (self-signed, Ethereum)", (type) => {
    it("holds for a 20-byte RoA id equal to the content", () => {
      expect(
        verify(type, { rightOfAssociationValidation: Ethereum, roaId: EVM_ADDRESS, content: EVM_ADDRESS }).roa,
      ).toBe(true);
    });

    it("fails under Solana validation, even with a matching 32-byte id and content", () => {
      const wide = key(0x44);
      expect(verify(type, { rightOfAssociationValidation: Solana, roaId: wide, content: wide }).roa).toBe(false);
    });

    it("fails for another address", () => {
      const other = new Uint8Array(20).fill(0x45);
      expect(verify(type, { rightOfAssociationValidation: Ethereum, roaId: other, content: EVM_ADDRESS }).roa).toBe(
        false,
      );
    });
  });

  describe.each(["url", "CNAME"] as const)("%s (guardian)", (type) => {
    const content = encodeRecordContent(type, "example.com");

    it("holds when the guardian signed with a Solana validation", () => {
      expect(verify(type, { rightOfAssociationValidation: Solana, roaId: GUARDIAN, content }).roa).toBe(true);
    });

    it("fails for UnverifiedSolana, another signer, or a self-signature", () => {
      expect(verify(type, { rightOfAssociationValidation: UnverifiedSolana, roaId: GUARDIAN, content }).roa).toBe(
        false,
      );
      expect(verify(type, { rightOfAssociationValidation: Solana, roaId: REGISTRY_OWNER, content }).roa).toBe(false);
      expect(verify(type, { rightOfAssociationValidation: None, content }).roa).toBe(false);
    });
  });

  const withoutVerifier = RECORD_TYPES.filter(
    (type) => !["SOL", "ETH", "BSC", "BASE", "INJ", "url", "CNAME"].includes(type),
  );

  it("covers 21 types without a verifier", () => {
    expect(withoutVerifier).toHaveLength(21);
  });

  it.each(withoutVerifier)("%s has no roa at all", (type) => {
    const verification = verify(type, { rightOfAssociationValidation: Solana, roaId: GUARDIAN, content: GUARDIAN });
    expect(verification).not.toHaveProperty("roa");
  });
});

describe("recordResponse", () => {
  const solAccount = encodeRecordV2Account({
    ...fresh,
    rightOfAssociationValidation: Solana,
    roaId: SOL_TARGET,
    content: SOL_TARGET,
  });

  it("has upstream's shape and key order", () => {
    const response = recordResponse("SOL", solAccount, REGISTRY_OWNER);
    expect(JSON.stringify(response)).toBe(
      JSON.stringify({
        deserialized: bytesToAddress(SOL_TARGET),
        stale: false,
        roa: true,
        record: {
          header: { stalenessValidation: 1, rightOfAssociationValidation: 1, contentLength: 32 },
          data: Buffer.from(solAccount.subarray(104)).toString("base64"),
        },
      }),
    );
    expect(Object.keys(response)).toEqual(["deserialized", "stale", "roa", "record"]);
  });

  it("reports the stored contentLength verbatim and includes trailing bytes in data", () => {
    const account = encodeRecordV2Account({ content: utf8.encode("hello"), contentLength: 999 });
    const response = recordResponse("email", account, REGISTRY_OWNER);
    expect(response).toEqual({
      deserialized: "hello",
      stale: true,
      record: {
        header: { stalenessValidation: 0, rightOfAssociationValidation: 0, contentLength: 999 },
        data: Buffer.from("hello").toString("base64"),
      },
    });
    expect(Object.keys(response)).toEqual(["deserialized", "stale", "record"]);
  });

  it("reports a stale record of the previous owner", () => {
    expect(recordResponse("SOL", solAccount, NFT_HOLDER)).toMatchObject({ stale: true, roa: true });
  });

  describe("undecodable content", () => {
    const longSol = encodeRecordV2Account({ content: new Uint8Array(33).fill(1) });

    it("throws INVALID_RECORD_DATA when strict", () => {
      expectCode(() => recordResponse("SOL", longSol, REGISTRY_OWNER), "INVALID_RECORD_DATA");
      expectCode(() => recordResponse("SOL", longSol, REGISTRY_OWNER, { strict: true }), "INVALID_RECORD_DATA");
    });

    it("omits deserialized when lenient", () => {
      const response = recordResponse("SOL", longSol, REGISTRY_OWNER, { strict: false });
      expect(Object.keys(response)).toEqual(["stale", "roa", "record"]);
      expect(response.roa).toBe(false);
    });
  });

  it.each([true, false])("omits deserialized for background records (strict: %s)", (strict) => {
    const account = encodeRecordV2Account({ ...fresh, content: key(5) });
    const response = recordResponse("background", account, REGISTRY_OWNER, { strict });
    expect(Object.keys(response)).toEqual(["stale", "record"]);
    expect(response.stale).toBe(false);
  });

  describe.each([true, false])("unreadable V2 header (strict: %s)", (strict) => {
    it.each([
      ["a validation value above 3", encodeRecordV2Account({ stalenessValidation: 4, content: new Uint8Array(40) })],
      [
        "ids longer than the account",
        encodeRecordV2Account({
          stalenessValidation: Solana,
          stalenessId: key(1).subarray(0, 20),
          content: new Uint8Array(0),
        }),
      ],
      ["an account shorter than 104 bytes", new Uint8Array(103)],
    ])("throws MALFORMED_ACCOUNT for %s", (_, account) => {
      expectCode(() => recordResponse("IPFS", account, REGISTRY_OWNER, { strict }), "MALFORMED_ACCOUNT");
    });
  });

  it("puts the type first in batch items", () => {
    const item = recordBatchItem("SOL", solAccount, REGISTRY_OWNER);
    expect(Object.keys(item)).toEqual(["type", "deserialized", "stale", "roa", "record"]);
    expect(item.type).toBe("SOL");
  });
});
