import { bech32 } from "@scure/base";
import ipaddr from "ipaddr.js";
import punycode from "punycode/punycode.js";
import { bytesToAddress, toHex, tryDecodePublicKey, utf8 } from "./bytes.js";
import { SnsError } from "./errors.js";
import { RecordTypeByName, type RecordType } from "./record-types.js";

/** Turns a record's raw content into its display string and back, per record type. */
export interface ContentCodec {
  /** Throws `SnsError("INVALID_RECORD_DATA")` when the bytes have no string form. */
  readonly decode: (content: Uint8Array) => string;
  /** Throws `SnsError("INVALID_INPUT")` when the string is not a valid value for the type. */
  readonly encode: (value: string) => Uint8Array;
}

// The SDK decodes with Buffer#toString, which keeps a leading BOM and
// replaces invalid sequences with U+FFFD; TextDecoder does the same once BOM
// stripping is turned off.
const utf8Decoder = new TextDecoder("utf-8", { ignoreBOM: true });

const invalidData = (type: RecordType, reason: string): SnsError =>
  new SnsError("INVALID_RECORD_DATA", `${type} record content: ${reason}`);

const invalidInput = (type: RecordType, reason: string): SnsError =>
  new SnsError("INVALID_INPUT", `${type} record value: ${reason}`);

const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Runs a third-party conversion and turns whatever it throws (punycode's
 * RangeError, bech32's length TypeError, ipaddr's Error) into the typed error.
 */
function guarded<T>(run: () => T, fail: (reason: string) => SnsError): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof SnsError) throw error;
    throw fail(reasonOf(error));
  }
}

const textCodec: ContentCodec = {
  decode: (content) => utf8Decoder.decode(content),
  encode: (value) => utf8.encode(value),
};

/**
 * CNAME and TXT store the RFC 3492 Punycode of the whole string (not IDNA
 * `xn--` labels): `example.com` is stored as `example.com-`.
 */
const punycodeCodec = (type: RecordType): ContentCodec => ({
  decode: (content) =>
    guarded(
      () => punycode.decode(utf8Decoder.decode(content)),
      (reason) => invalidData(type, reason),
    ),
  encode: (value) =>
    utf8.encode(
      guarded(
        () => punycode.encode(value),
        (reason) => invalidInput(type, reason),
      ),
    ),
});

/**
 * web3.js reads the content as a big-endian integer: leading zero bytes are
 * insignificant, fewer than 32 significant bytes are left-padded, more fail.
 */
const solCodec: ContentCodec = {
  decode: (content) => {
    let start = 0;
    while (start < content.length && content[start] === 0) start++;
    const significant = content.length - start;
    if (significant > 32) throw invalidData(RecordTypeByName.SOL, `${content.length} bytes do not fit a public key`);
    const key = new Uint8Array(32);
    key.set(content.subarray(start), 32 - significant);
    return bytesToAddress(key);
  },
  encode: (value) => {
    const key = tryDecodePublicKey(value);
    if (!key) throw invalidInput(RecordTypeByName.SOL, "not a base58 public key");
    return key;
  },
};

const HEX_BODY = /^(?:[0-9a-fA-F]{2})*$/;

/** EVM addresses: lowercase `0x` hex, no checksum casing and no length check, as upstream. */
const evmCodec = (type: RecordType): ContentCodec => ({
  decode: (content) => `0x${toHex(content)}`,
  encode: (value) => {
    if (!value.startsWith("0x")) throw invalidInput(type, "must start with 0x");
    const body = value.slice(2);
    if (!HEX_BODY.test(body)) throw invalidInput(type, "not an even-length hex string");
    return Uint8Array.from(body.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
  },
});

const INJECTIVE_PREFIX = "inj";
const INJECTIVE_ADDRESS_LEN = 20;

/** Classic bech32 (not bech32m) under the 90-character limit of BIP 173. */
const injectiveCodec: ContentCodec = {
  decode: (content) =>
    guarded(
      () => bech32.encode(INJECTIVE_PREFIX, bech32.toWords(content)),
      (reason) => invalidData(RecordTypeByName.Injective, reason),
    ),
  encode: (value) => {
    const { prefix, bytes } = guarded(
      () => bech32.decodeToBytes(value),
      (reason) => invalidInput(RecordTypeByName.Injective, reason),
    );
    if (prefix !== INJECTIVE_PREFIX) throw invalidInput(RecordTypeByName.Injective, `prefix ${prefix} is not inj`);
    if (bytes.length !== INJECTIVE_ADDRESS_LEN) {
      throw invalidInput(RecordTypeByName.Injective, `${bytes.length} bytes, not 20`);
    }
    return bytes;
  },
};

/**
 * RFC 5952 text: the longest run of two or more zero groups becomes
 * "::", and on a tie the first run wins. Upstream's ipaddr.js
 * ranks runs by the length of its regex match, where an interior run carries
 * an extra ":", so it prints `0:0:1::1:1:1` where RFC 5952 requires
 * `::1:0:0:1:1:1`; the gateway follows the RFC (a deliberate difference).
 */
function formatIpv6(bytes: Uint8Array): string {
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  let best: { start: number; end: number } | null = null;
  for (let start = 0; start < 8; start++) {
    if (groups[start] !== "0") continue;
    let end = start;
    while (end < 8 && groups[end] === "0") end++;
    if (end - start >= 2 && (!best || end - start > best.end - best.start)) best = { start, end };
    start = end;
  }
  if (!best) return groups.join(":");
  return `${groups.slice(0, best.start).join(":")}::${groups.slice(best.end).join(":")}`;
}

const formatIpv4 = (bytes: Uint8Array): string => Array.from(bytes).join(".");

/**
 * A and AAAA decode by length alone (4 bytes IPv4, 16 bytes IPv6, whichever
 * the type), but each only encodes its own family.
 */
const ipCodec = (type: RecordType, family: "ipv4" | "ipv6"): ContentCodec => ({
  decode: (content) => {
    if (content.length === 4) return formatIpv4(content);
    if (content.length === 16) return formatIpv6(content);
    throw invalidData(type, `${content.length} bytes are neither an IPv4 nor an IPv6 address`);
  },
  encode: (value) => {
    const address = guarded(
      () => ipaddr.parse(value),
      (reason) => invalidInput(type, reason),
    );
    if (address.kind() !== family) throw invalidInput(type, `not an ${family} address`);
    return Uint8Array.from(address.toByteArray());
  },
});

/** Every type except `background`, which upstream never decodes. */
export type DecodableRecordType = Exclude<RecordType, typeof RecordTypeByName.Background>;

const CODECS: { readonly [T in DecodableRecordType]: ContentCodec } = {
  IPFS: textCodec,
  ARWV: textCodec,
  SOL: solCodec,
  ETH: evmCodec(RecordTypeByName.ETH),
  BTC: textCodec,
  LTC: textCodec,
  DOGE: textCodec,
  email: textCodec,
  url: textCodec,
  discord: textCodec,
  github: textCodec,
  reddit: textCodec,
  twitter: textCodec,
  telegram: textCodec,
  pic: textCodec,
  SHDW: textCodec,
  POINT: textCodec,
  BSC: evmCodec(RecordTypeByName.BSC),
  INJ: injectiveCodec,
  backpack: textCodec,
  A: ipCodec(RecordTypeByName.A, "ipv4"),
  AAAA: ipCodec(RecordTypeByName.AAAA, "ipv6"),
  CNAME: punycodeCodec(RecordTypeByName.CNAME),
  TXT: punycodeCodec(RecordTypeByName.TXT),
  BASE: evmCodec(RecordTypeByName.BASE),
  IPNS: textCodec,
  bio: textCodec,
};

export const hasContentCodec = (type: RecordType): type is DecodableRecordType => type !== RecordTypeByName.Background;

export function getContentCodec(type: RecordType): ContentCodec | undefined {
  return hasContentCodec(type) ? CODECS[type] : undefined;
}

/**
 * Display string of a record's content. Throws
 * `SnsError("INVALID_RECORD_DATA")` for content with no string form,
 * including any `background` content.
 */
export function decodeRecordContent(type: RecordType, content: Uint8Array): string {
  const codec = getContentCodec(type);
  if (!codec) throw invalidData(type, "has no decoder");
  return codec.decode(content);
}

/** Raw content for a display string; throws `SnsError("INVALID_INPUT")` for invalid values. */
export function encodeRecordContent(type: RecordType, value: string): Uint8Array {
  const codec = getContentCodec(type);
  if (!codec) throw invalidInput(type, "has no encoder");
  return codec.encode(value);
}
