import { describe, expect, it } from "vitest";
import { addressToBytes, utf8 } from "../../src/sns/bytes.js";
import { GUARDIAN_KEY } from "../../src/sns/constants.js";
import { SnsError } from "../../src/sns/errors.js";
import { decodeRecordContent, encodeRecordContent, hasContentCodec } from "../../src/sns/record-content.js";
import {
  ETH_ROA_RECORDS,
  GUARDIAN_RECORDS,
  RECORD_TYPES,
  Record,
  type RecordType,
  SELF_SIGNED_RECORDS,
  isRecordType,
} from "../../src/sns/record-types.js";
import { expectCode } from "../../testkit/expect-code.js";
import { sdk } from "../../testkit/sdk.js";

const bytes = (...values: number[]): Uint8Array => Uint8Array.from(values);
const text = (value: string): Uint8Array => utf8.encode(value);
const hex = (value: string): Uint8Array => Uint8Array.from(Buffer.from(value, "hex"));
const ipv6 = (...groups: number[]): Uint8Array => Uint8Array.from(groups.flatMap((g) => [g >> 8, g & 0xff]));

const expectInvalidData = (type: RecordType, content: Uint8Array): void =>
  expectCode(() => decodeRecordContent(type, content), "INVALID_RECORD_DATA");

const expectInvalidInput = (type: RecordType, value: string): void =>
  expectCode(() => encodeRecordContent(type, value), "INVALID_INPUT");

/** The SDK's decoder, with its thrown error reduced to a marker. */
function sdkDecode(type: RecordType, content: Uint8Array): string | { error: string } {
  try {
    return sdk.deserializeRecordV2Content(Buffer.from(content), type);
  } catch (error) {
    return { error: (error as Error).message };
  }
}

describe("Record enum", () => {
  it("is the SDK's object: same members, values and order", () => {
    expect(JSON.stringify(Record)).toBe(JSON.stringify(sdk.Record));
    expect(Object.keys(Record)).toHaveLength(28);
    expect(RECORD_TYPES).toEqual(Object.values(sdk.Record));
  });

  it("accepts exact wire values only", () => {
    for (const type of RECORD_TYPES) expect(isRecordType(type)).toBe(true);
    for (const value of [
      "sol",
      "Url",
      "URL",
      "Injective",
      "inj",
      "Email",
      " SOL",
      "SOL ",
      "",
      "toString",
      "__proto__",
    ]) {
      expect(isRecordType(value)).toBe(false);
    }
  });

  it("has the SDK's verification groups", () => {
    expect([...SELF_SIGNED_RECORDS].sort()).toEqual([...sdk.SELF_SIGNED].sort());
    expect([...ETH_ROA_RECORDS].sort()).toEqual([...sdk.ETH_ROA_RECORDS].sort());
    expect([...GUARDIAN_RECORDS].sort()).toEqual([...sdk.GUARDIANS.keys()].sort());
    for (const key of sdk.GUARDIANS.values()) expect(key.toBase58()).toBe(GUARDIAN_KEY);
  });
});

const UTF8_TYPES: readonly RecordType[] = [
  "IPFS",
  "ARWV",
  "BTC",
  "LTC",
  "DOGE",
  "email",
  "url",
  "discord",
  "github",
  "reddit",
  "twitter",
  "telegram",
  "pic",
  "SHDW",
  "POINT",
  "backpack",
  "IPNS",
  "bio",
];

describe("decodeRecordContent", () => {
  it("covers every type: 18 plain text, 2 punycode, SOL, 3 EVM, INJ, A, AAAA, background", () => {
    expect(
      new Set([...UTF8_TYPES, "CNAME", "TXT", "SOL", "ETH", "BSC", "BASE", "INJ", "A", "AAAA", "background"]),
    ).toEqual(new Set(RECORD_TYPES));
  });

  describe.each(UTF8_TYPES)("%s (UTF-8 text)", (type) => {
    it("decodes text as is", () => {
      expect(decodeRecordContent(type, text("https://sns.id/ünï 🚀"))).toBe("https://sns.id/ünï 🚀");
      expect(decodeRecordContent(type, new Uint8Array(0))).toBe("");
      // Punycode is specific to CNAME/TXT.
      expect(decodeRecordContent(type, text("example.com-"))).toBe("example.com-");
    });

    it("replaces invalid sequences and keeps a BOM, like Buffer#toString", () => {
      const content = bytes(0xef, 0xbb, 0xbf, 0x61, 0xff, 0xc3, 0x62, 0xed, 0xa0, 0x80, 0xf0, 0x9f, 0x98);
      const decoded = decodeRecordContent(type, content);
      expect(decoded).toBe("\ufeffa\ufffd\ufffdb\ufffd\ufffd\ufffd\ufffd");
      expect(decoded).toBe(sdkDecode(type, content));
    });
  });

  describe.each(["CNAME", "TXT"] as const)("%s (whole-string Punycode)", (type) => {
    it.each([
      ["example.com-", "example.com"],
      ["hllo wrld-b4a2m", "héllo wörld"],
      ["", ""],
      ["a-", "a"],
      ["mnchen-3ya", "münchen"],
      ["ls8h", "💩"],
      // Without a delimiter every character is a digit: plain words decode to something else.
      ["example", "Ωίθηδ"],
    ])("%j → %j", (stored, expected) => {
      expect(decodeRecordContent(type, text(stored))).toBe(expected);
      expect(sdkDecode(type, text(stored))).toBe(expected);
    });

    it.each([
      ["-", "a lone delimiter is an invalid digit"],
      ["99999999999", "overflow"],
      ["é-a", "non-basic code point before the delimiter"],
      ["abc-!", "invalid digit"],
      ["a-zzzzzz9", "digits run out mid-number"],
      ["o966m", "a code point beyond U+10FFFF (String.fromCodePoint)"],
    ])("%j is INVALID_RECORD_DATA (%s)", (stored) => {
      expectInvalidData(type, text(stored));
      expect(sdkDecode(type, text(stored))).toHaveProperty("error");
    });

    it("treats replacement characters like any non-basic input", () => {
      expectInvalidData(type, bytes(0xff, 0x2d, 0x61));
    });
  });

  describe("SOL", () => {
    const key = addressToBytes(GUARDIAN_KEY);

    it("base58-encodes 32 bytes", () => {
      expect(decodeRecordContent("SOL", key)).toBe(GUARDIAN_KEY);
    });

    it("left-pads shorter content like new PublicKey(bytes)", () => {
      expect(decodeRecordContent("SOL", new Uint8Array(0))).toBe("11111111111111111111111111111111");
      expect(decodeRecordContent("SOL", bytes(1))).toBe("11111111111111111111111111111112");
      const short = key.subarray(5);
      expect(decodeRecordContent("SOL", short)).toBe(sdkDecode("SOL", short));
    });

    it("ignores leading zero bytes beyond 32, as web3.js reads the bytes as an integer", () => {
      const padded = new Uint8Array(40);
      padded.set(key, 8);
      expect(decodeRecordContent("SOL", padded)).toBe(GUARDIAN_KEY);
      expect(sdkDecode("SOL", padded)).toBe(GUARDIAN_KEY);
    });

    it("rejects more than 32 significant bytes", () => {
      const long = new Uint8Array(33).fill(7);
      expectInvalidData("SOL", long);
      expect(sdkDecode("SOL", long)).toEqual({ error: "Invalid public key input" });
      const trailing = new Uint8Array(36);
      trailing.set(key);
      expectInvalidData("SOL", trailing);
    });
  });

  describe.each(["ETH", "BSC", "BASE"] as const)("%s (EVM hex)", (type) => {
    it("is 0x + lowercase hex of any length", () => {
      expect(decodeRecordContent(type, hex("01080f161d242b323940474e555c636a71787f86"))).toBe(
        "0x01080f161d242b323940474e555c636a71787f86",
      );
      expect(decodeRecordContent(type, hex("ABCDEF"))).toBe("0xabcdef");
      expect(decodeRecordContent(type, new Uint8Array(0))).toBe("0x");
    });
  });

  describe("INJ (bech32)", () => {
    it("encodes 20 bytes with the inj prefix", () => {
      const content = hex("01080f161d242b323940474e555c636a71787f86");
      expect(decodeRecordContent("INJ", content)).toBe("inj1qyyq79says4nyw2qga892hrrdfchsluxjfuxnd");
    });

    it("encodes up to 50 bytes (90 characters) and rejects more", () => {
      expect(decodeRecordContent("INJ", new Uint8Array(50).fill(1))).toHaveLength(90);
      expect(decodeRecordContent("INJ", new Uint8Array(0))).toBe(sdkDecode("INJ", new Uint8Array(0)));
      expectInvalidData("INJ", new Uint8Array(51));
      expect(sdkDecode("INJ", new Uint8Array(51))).toHaveProperty("error");
    });
  });

  describe.each(["A", "AAAA"] as const)("%s (IP address)", (type) => {
    it("decodes 4 bytes as dotted IPv4 and 16 bytes as IPv6, whatever the type", () => {
      expect(decodeRecordContent(type, bytes(1, 2, 3, 4))).toBe("1.2.3.4");
      expect(decodeRecordContent(type, bytes(0, 0, 0, 0))).toBe("0.0.0.0");
      expect(decodeRecordContent(type, ipv6(0x2001, 0xdb8, 0, 0, 0, 0, 0, 1))).toBe("2001:db8::1");
    });

    it.each([0, 1, 3, 5, 15, 17, 32])("rejects %i bytes", (length) => {
      expectInvalidData(type, new Uint8Array(length));
    });
  });

  describe("IPv6 text", () => {
    it.each([
      [[0, 0, 0, 0, 0, 0, 0, 1], "::1"],
      [[0, 0, 0, 0, 0, 0, 0, 0], "::"],
      [[1, 0, 0, 0, 0, 0, 0, 0], "1::"],
      [[0x2001, 0xdb8, 0, 0, 0, 0, 0, 1], "2001:db8::1"],
      [[0, 0, 0, 0, 0, 0xffff, 0x102, 0x304], "::ffff:102:304"],
      [[0x2001, 0xdb8, 0, 1, 1, 1, 1, 1], "2001:db8:0:1:1:1:1:1"],
      [[0x2001, 0xdb8, 0, 0, 1, 0, 0, 1], "2001:db8::1:0:0:1"],
      [[1, 0, 0, 2, 0, 0, 0, 3], "1:0:0:2::3"],
      [[1, 0, 0, 1, 1, 1, 0, 0], "1::1:1:1:0:0"],
      [[0, 0, 1, 1, 1, 1, 0, 0], "::1:1:1:1:0:0"],
      [[0xfe80, 0, 0, 0, 0xabcd, 0xef, 0x12, 0x3400], "fe80::abcd:ef:12:3400"],
      [[1, 0, 0, 1, 0, 0, 1, 1], "1::1:0:0:1:1"],
      [[0, 0, 1, 0, 0, 0, 1, 1], "0:0:1::1:1"],
    ])("%j → %s, as the SDK prints it", (groups, expected) => {
      const content = ipv6(...groups);
      expect(decodeRecordContent("AAAA", content)).toBe(expected);
      expect(sdkDecode("AAAA", content)).toBe(expected);
    });

    // RFC 5952: on a tie the first longest run is shortened. The SDK's
    // ipaddr.js prefers an interior run over an equally long leading one.
    it.each([
      [[0, 0, 1, 0, 0, 1, 1, 1], "::1:0:0:1:1:1", "0:0:1::1:1:1"],
      [[0, 0, 0xff, 0xff, 0, 0, 0xff, 0xff], "::ff:ff:0:0:ff:ff", "0:0:ff:ff::ff:ff"],
      [[0, 0, 0, 1, 0, 0, 0, 1], "::1:0:0:0:1", "0:0:0:1::1"],
    ])("%j → %s (RFC 5952 tie; the SDK prints %s)", (groups, expected, sdkText) => {
      const content = ipv6(...groups);
      expect(decodeRecordContent("AAAA", content)).toBe(expected);
      expect(sdkDecode("AAAA", content)).toBe(sdkText);
    });
  });

  describe("background", () => {
    it("has no decoder", () => {
      expect(hasContentCodec("background")).toBe(false);
      expectInvalidData("background", new Uint8Array(32));
      expect(sdkDecode("background", new Uint8Array(32))).toEqual({ error: "The record content is malformed" });
    });
  });

  it("never throws anything but SnsError", () => {
    const contents = [new Uint8Array(0), new Uint8Array(33).fill(0xff), text("-"), new Uint8Array(64), bytes(0xc3)];
    for (const type of RECORD_TYPES) {
      for (const content of contents) {
        try {
          decodeRecordContent(type, content);
        } catch (error) {
          expect(error).toBeInstanceOf(SnsError);
          expect((error as SnsError).code).toBe("INVALID_RECORD_DATA");
        }
      }
    }
  });
});

describe("encodeRecordContent", () => {
  const valid: readonly (readonly [RecordType, string])[] = [
    ...UTF8_TYPES.map((type) => [type, "héllo wörld 🚀"] as const),
    ["CNAME", "example.com"],
    ["TXT", "héllo wörld"],
    ["SOL", GUARDIAN_KEY],
    ["SOL", "11111111111111111111111111111111"],
    ["ETH", "0x01080f161d242b323940474e555c636a71787f86"],
    ["BSC", "0xABCDEF0123456789abcdef0123456789ABCDEF01"],
    ["BASE", "0x"],
    ["INJ", "inj1qyyq79says4nyw2qga892hrrdfchsluxjfuxnd"],
    ["INJ", "INJ1QYYQ79SAYS4NYW2QGA892HRRDFCHSLUXJFUXND"],
    ["A", "1.2.3.4"],
    ["AAAA", "2001:db8::1"],
    ["AAAA", "::ffff:1.2.3.4"],
  ];

  it.each(valid)("%s %j agrees with serializeRecordV2Content", (type, value) => {
    const ours = encodeRecordContent(type, value);
    expect(Buffer.from(ours).equals(sdk.serializeRecordV2Content(value, type))).toBe(true);
  });

  it.each(valid)("%s %j round-trips through decode", (type, value) => {
    const decoded = decodeRecordContent(type, encodeRecordContent(type, value));
    const canonical: Partial<Record<string, string>> = {
      "0xABCDEF0123456789abcdef0123456789ABCDEF01": "0xabcdef0123456789abcdef0123456789abcdef01",
      INJ1QYYQ79SAYS4NYW2QGA892HRRDFCHSLUXJFUXND: "inj1qyyq79says4nyw2qga892hrrdfchsluxjfuxnd",
      "::ffff:1.2.3.4": "::ffff:102:304",
    };
    expect(decoded).toBe(canonical[value] ?? value);
  });

  it("stores CNAME/TXT as whole-string Punycode", () => {
    expect(Buffer.from(encodeRecordContent("CNAME", "example.com")).toString()).toBe("example.com-");
    expect(Buffer.from(encodeRecordContent("TXT", "héllo wörld")).toString()).toBe("hllo wrld-b4a2m");
  });

  it.each([
    ["SOL", "not-base58-0OIl"],
    ["SOL", "1111111111111111111111111111111"],
    ["SOL", "3yZe7d"],
    ["ETH", "01080f161d242b323940474e555c636a71787f86"],
    ["ETH", "0xzz"],
    ["BSC", "0xabc"],
    ["INJ", "cosmos1qyyq79says4nyw2qga892hrrdfchsluxj7gxv7n"],
    ["INJ", "inj1qyyq79says4nyw2qga892hrrdfchsluxjfuxne"],
    ["INJ", "inj1qyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpfd2zwd"],
    ["INJ", "Inj1qyyq79says4nyw2qga892hrrdfchsluxjfuxnd"],
    ["A", "::1"],
    ["A", "example.com"],
    ["AAAA", "1.2.3.4"],
    ["AAAA", ""],
    ["background", "anything"],
  ] as const)("%s %j is INVALID_INPUT", (type, value) => {
    expectInvalidInput(type, value);
  });
});
