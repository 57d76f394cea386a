import punycode from "punycode/punycode.js";
import { addressToBytes, utf8 } from "../src/sns/bytes.js";
import { GUARDIAN_KEY } from "../src/sns/constants.js";
import { encodeRecordV2Account } from "../src/sns/layouts/record-v2.js";
import type { RecordType } from "../src/sns/record-types.js";
import type { Rng } from "./rng.js";

/*
 * Random V2 record accounts for the records differential tests. Most are
 * well-formed; the rest carry the malformations readers must survive:
 * undecodable content, out-of-range validations, ids that disagree with
 * their validation, lying content lengths, trailing bytes and truncation.
 */

/** Id length per validation (None, Solana, Ethereum, UnverifiedSolana); undefined above 3. */
export const ID_LENGTH: readonly number[] = [0, 32, 20, 32];

const GUARDIAN = addressToBytes(GUARDIAN_KEY);
const EVM_TYPES: ReadonlySet<RecordType> = new Set<RecordType>(["ETH", "BSC", "BASE", "INJ"]);
const TEXT_TYPES: ReadonlySet<RecordType> = new Set<RecordType>([
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
]);

const CHARS = [
  ..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
  ..."-.-- _/:@",
  ..."éöüßñçøåæ",
  ..."日本語中文한국",
  "\u{1F680}",
  "\u{1F4A9}",
  "\u{10FFFF}",
  "\ufeff",
  "\u0000",
];
const ASCII = [..."abcdefghijklmnopqrstuvwxyz0123456789-.-_!"];

function randomString(rng: Rng, alphabet: readonly string[], maxLength: number): string {
  let out = "";
  for (let i = rng.int(0, maxLength); i > 0; i--) out += rng.pick(alphabet);
  return out;
}

export const randomText = (rng: Rng, maxLength = 24): string => randomString(rng, CHARS, maxLength);
const randomAscii = (rng: Rng): string => randomString(rng, ASCII, 16);

/** Random (often invalid) UTF-8: valid text with stray continuation or lead bytes spliced in. */
function messyUtf8(rng: Rng): Uint8Array {
  const bytes = [...utf8.encode(randomText(rng))];
  for (let i = rng.int(1, 4); i > 0; i--) {
    bytes.splice(rng.int(0, bytes.length), 0, rng.pick([0x80, 0xbf, 0xc0, 0xc3, 0xe2, 0xed, 0xf0, 0xf4, 0xf8, 0xff]));
  }
  return Uint8Array.from(bytes);
}

function ipv6Content(rng: Rng): Uint8Array {
  const groups = rng.bool(0.25)
    ? // A leading zero run as long as a later interior one: the RFC 5952 tie.
      rng.pick([
        [0, 0, 1, 0, 0, 1, 1, 1],
        [0, 0, 0xabc, 0, 0, 7, 0, 0],
        [0, 0, 0, 0x2001, 0, 0, 0, 9],
      ])
    : // Zero-heavy groups exercise every placement of the "::" run.
      Array.from({ length: 8 }, () => (rng.bool(0.55) ? 0 : rng.bool(0.5) ? rng.int(1, 15) : rng.int(0, 0xffff)));
  return Uint8Array.from(groups.flatMap((g) => [g >> 8, g & 0xff]));
}

/** Content for a record of `type`: usually what the type holds, sometimes bytes it cannot decode. */
export function randomContent(rng: Rng, type: RecordType): Uint8Array {
  if (rng.bool(0.08)) return rng.bytes(rng.int(0, 47));
  if (TEXT_TYPES.has(type)) return rng.bool(0.7) ? utf8.encode(randomText(rng, 40)) : messyUtf8(rng);
  switch (type) {
    case "CNAME":
    case "TXT": {
      // Plain text is often not valid Punycode: undecodable content.
      const roll = rng.next();
      if (roll < 0.55) return utf8.encode(punycode.encode(randomText(rng)));
      if (roll < 0.85) return utf8.encode(randomAscii(rng));
      return messyUtf8(rng);
    }
    case "SOL": {
      const roll = rng.next();
      if (roll < 0.6) return rng.bytes(32);
      if (roll < 0.75) return rng.bytes(rng.int(0, 31));
      if (roll < 0.9) return Uint8Array.from([...new Uint8Array(rng.int(1, 8)), ...rng.bytes(rng.int(1, 32))]);
      return rng.bytes(rng.int(33, 40));
    }
    case "ETH":
    case "BSC":
    case "BASE":
    case "INJ":
      return rng.bool(0.6) ? rng.bytes(20) : rng.bytes(rng.int(0, 60));
    case "A":
    case "AAAA": {
      const roll = rng.next();
      if (roll < 0.35) return rng.bytes(4);
      if (roll < 0.8) return ipv6Content(rng);
      return rng.bytes(rng.pick([0, 1, 3, 5, 8, 15, 17, 20, 32]));
    }
    default:
      return rng.bytes(rng.bool(0.7) ? 32 : rng.int(0, 47));
  }
}

function randomValidation(rng: Rng): number {
  if (rng.bool(0.04)) return rng.pick([4, 5, 255, 256, 65535]);
  return rng.int(0, 3);
}

function randomId(rng: Rng, length: number, candidates: readonly Uint8Array[]): Uint8Array {
  const fitting = candidates.filter((c) => c.length === length);
  if (fitting.length > 0 && rng.bool(0.6)) return rng.pick(fitting);
  if (length === 20 && rng.bool(0.3)) return rng.pick(candidates).subarray(12, 32);
  return rng.bytes(length);
}

export interface RecordDomain {
  /** The domain key, written as the record's parent. */
  readonly parent?: Uint8Array;
  readonly registryOwner: Uint8Array;
  /** The NFT holder of a tokenized domain, which ids may name as well. */
  readonly holder?: Uint8Array;
}

export function randomRecordAccount(rng: Rng, type: RecordType, domain: RecordDomain): Uint8Array {
  const content = randomContent(rng, type);
  const owners = domain.holder ? [domain.registryOwner, domain.holder] : [domain.registryOwner];
  // Biased towards the validations a real record of this type carries, so verification passes often enough.
  const stalenessValidation = rng.bool(0.5) ? 1 : randomValidation(rng);
  const rightOfAssociationValidation = rng.bool(0.3) ? (EVM_TYPES.has(type) ? 2 : 1) : randomValidation(rng);
  const stalenessId = randomId(rng, ID_LENGTH[stalenessValidation] ?? rng.int(0, 39), owners);
  const roaId = randomId(rng, ID_LENGTH[rightOfAssociationValidation] ?? rng.int(0, 39), [
    content,
    GUARDIAN,
    ...owners,
  ]);
  const trailing = rng.bool(0.15) ? rng.bytes(rng.int(1, 8)) : new Uint8Array(0);
  const account = encodeRecordV2Account({
    parent: domain.parent,
    owner: domain.registryOwner,
    stalenessValidation,
    rightOfAssociationValidation,
    stalenessId,
    roaId,
    content: Uint8Array.from([...content, ...trailing]),
    contentLength: rng.bool(0.8) ? content.length : rng.int(0, 2 ** 32 - 1),
  });
  return rng.bool(0.04) ? account.subarray(0, rng.int(0, account.length - 1)) : account;
}

/** Whether the gateway can read the V2 header, or why not. */
export function headerProblem(account: Uint8Array): "short" | "validation" | "overrun" | null {
  if (account.length < 104) return "short";
  const view = new DataView(account.buffer, account.byteOffset, account.byteLength);
  const staleness = ID_LENGTH[view.getUint16(96, true)];
  const roa = ID_LENGTH[view.getUint16(98, true)];
  if (staleness === undefined || roa === undefined) return "validation";
  return 104 + staleness + roa > account.length ? "overrun" : null;
}
