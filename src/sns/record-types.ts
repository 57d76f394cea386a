/**
 * The V2 record enum exactly as the official SDK defines it (the SDK's
 * `Record`, a name not taken here because it would shadow TypeScript's
 * `Record<K, V>`): member name to wire value, in the SDK's declaration order,
 * because `/types/record` serves this object verbatim.
 */
export const RecordTypeByName = {
  IPFS: "IPFS",
  ARWV: "ARWV",
  SOL: "SOL",
  ETH: "ETH",
  BTC: "BTC",
  LTC: "LTC",
  DOGE: "DOGE",
  Email: "email",
  Url: "url",
  Discord: "discord",
  Github: "github",
  Reddit: "reddit",
  Twitter: "twitter",
  Telegram: "telegram",
  Pic: "pic",
  SHDW: "SHDW",
  POINT: "POINT",
  BSC: "BSC",
  Injective: "INJ",
  Backpack: "backpack",
  A: "A",
  AAAA: "AAAA",
  CNAME: "CNAME",
  TXT: "TXT",
  Background: "background",
  BASE: "BASE",
  IPNS: "IPNS",
  Bio: "bio",
} as const;

export type RecordName = keyof typeof RecordTypeByName;
/** A record's wire value, the string hashed into its account key. */
export type RecordType = (typeof RecordTypeByName)[RecordName];

export const RECORD_TYPES: readonly RecordType[] = Object.freeze(Object.values(RecordTypeByName));

const RECORD_TYPE_SET: ReadonlySet<string> = new Set(RECORD_TYPES);

/** Exact, case-sensitive match on the wire value (`SOL`, `url`, `INJ`; not `sol` or `Injective`). */
export const isRecordType = (value: string): value is RecordType => RECORD_TYPE_SET.has(value);

/** Types whose right of association is signed by the content itself. */
export const SELF_SIGNED_RECORDS: ReadonlySet<RecordType> = new Set<RecordType>([
  RecordTypeByName.SOL,
  RecordTypeByName.ETH,
  RecordTypeByName.BSC,
  RecordTypeByName.BASE,
  RecordTypeByName.Injective,
]);

/** Types whose right of association is vouched for by the guardian key. */
export const GUARDIAN_RECORDS: ReadonlySet<RecordType> = new Set<RecordType>([
  RecordTypeByName.Url,
  RecordTypeByName.CNAME,
]);

/** Types whose right of association is an Ethereum-style (20-byte) signature. */
export const ETH_ROA_RECORDS: ReadonlySet<RecordType> = new Set<RecordType>([
  RecordTypeByName.ETH,
  RecordTypeByName.BSC,
  RecordTypeByName.BASE,
  RecordTypeByName.Injective,
]);
