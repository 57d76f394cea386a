import type { Address } from "@solana/kit";
import { addressToBytes, bytesToAddress, utf8 } from "./bytes.js";
import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  CENTRAL_STATE_SNS_RECORDS,
  NAME_OFFERS_ID,
  NAME_PROGRAM_ID,
  NAME_TOKENIZER_ID,
  RECORD_V1_PREFIX,
  RECORD_V2_PREFIX,
  REVERSE_LOOKUP_CLASS,
  SNS_HASH_PREFIX,
  SNS_ROOT_DOMAIN,
  SOL_SRS_CLASS,
  SRS_HASH_PREFIX,
  SRS_PROGRAM_ID,
  SUBDOMAIN_PREFIX,
  TOKEN_PROGRAM_ID,
} from "./constants.js";
import { decodesAsPoint } from "./curve.js";
import { createMemo } from "./memos.js";
import { sha256 } from "./sha256.js";
import { asciiFieldBytes, type MemoStats, readAscii, writeAscii } from "./slab-memo.js";

const PDA_MARKER = utf8.encode("ProgramDerivedAddress");
const ZERO_KEY = new Uint8Array(32);

/** sha256("SPL Name Service" + name) over UTF-8, as the name program hashes names. */
export function hashName(name: string): Uint8Array {
  return sha256(utf8.encode(SNS_HASH_PREFIX + name));
}

/**
 * The bytes of the program ids, class and parent a new name's four keys are
 * derived under, decoded from base58 once rather than for each derivation.
 * Shared, like the hashed record names below: only ever read (copied into a
 * PDA's seed buffer), never returned or written.
 */
const NAME_PROGRAM_BYTES = addressToBytes(NAME_PROGRAM_ID);
const NAME_TOKENIZER_BYTES = addressToBytes(NAME_TOKENIZER_ID);
const ROOT_DOMAIN_BYTES = addressToBytes(SNS_ROOT_DOMAIN);
const CENTRAL_STATE_BYTES = addressToBytes(CENTRAL_STATE_SNS_RECORDS);

/**
 * Solana `findProgramAddress`: the first bump from 255 down whose hash falls
 * off the ed25519 curve. Synchronous, unlike kit's WebCrypto-based variant,
 * so derivations can sit on the hot path behind a memo.
 */
export function findProgramAddress(seeds: readonly Uint8Array[], programId: Address): Address {
  return bytesToAddress(programAddressBytes(seeds, addressToBytes(programId)));
}

/** `findProgramAddress` of a program given as bytes, its address as bytes. */
function programAddressBytes(seeds: readonly Uint8Array[], program: Uint8Array): Uint8Array {
  const seedLength = seeds.reduce((n, s) => n + s.length, 0);
  const buffer = new Uint8Array(seedLength + 1 + 32 + PDA_MARKER.length);
  let offset = 0;
  for (const seed of seeds) {
    if (seed.length > 32) throw new RangeError("PDA seed longer than 32 bytes");
    buffer.set(seed, offset);
    offset += seed.length;
  }
  const bumpOffset = offset;
  buffer.set(program, bumpOffset + 1);
  buffer.set(PDA_MARKER, bumpOffset + 33);
  for (let bump = 255; bump >= 0; bump--) {
    buffer[bumpOffset] = bump;
    const candidate = sha256(buffer);
    if (!decodesAsPoint(candidate)) return candidate;
  }
  throw new Error("no viable PDA bump");
}

/** Name-service account address: always three seeds, absent class/parent become 32 zero bytes. */
export function deriveNameAccount(hashedName: Uint8Array, nameClass?: Address, parent?: Address): Address {
  return bytesToAddress(
    nameAccountBytes(
      hashedName,
      nameClass ? addressToBytes(nameClass) : ZERO_KEY,
      parent ? addressToBytes(parent) : ZERO_KEY,
    ),
  );
}

const nameAccountBytes = (hashedName: Uint8Array, nameClass: Uint8Array, parent: Uint8Array): Uint8Array =>
  programAddressBytes([hashedName, nameClass, parent], NAME_PROGRAM_BYTES);

// Every derivation is a pure function of its string inputs; caching them
// keeps repeated resolutions of hot names free of sha256 and curve work.
// Names come from request paths: the memos key entries by a digest of the
// name, so an entry has one size whatever the name's length.

/** A base58 address: 32 bytes are 32 to 44 characters. */
const ADDRESS_FIELD_BYTES = asciiFieldBytes(44);

/**
 * Single keys of the other routes (`/domain-key`, records, reverses, wallets),
 * and subdomains' parents: 78 bytes an entry, 67,000 fit.
 */
export const KEY_MEMO_BYTES = 6 * 1024 * 1024;
const memo = createMemo("keys", KEY_MEMO_BYTES, ADDRESS_FIELD_BYTES);
const readAddress = (slab: Uint8Array, offset: number) => readAscii(slab, offset) as Address;

/** Names and memo keys are mostly short ASCII: copied here, they spare TextEncoder its allocation and native call. */
const asciiScratch = new Uint8Array(128);

/** sha256 of the key's UTF-8 bytes: the text every derivation hashes, so keys equal as UTF-8 share their results. */
function digestOf(key: string): Uint8Array {
  if (key.length <= asciiScratch.length) {
    let i = 0;
    for (; i < key.length; i++) {
      const code = key.charCodeAt(i);
      if (code > 0x7f) break;
      asciiScratch[i] = code;
    }
    if (i === key.length) return sha256(asciiScratch.subarray(0, i));
  }
  return sha256(utf8.encode(key));
}

function memoized(key: string, derive: () => Address): Address {
  const digest = digestOf(key);
  let value = memo.get(digest, readAddress);
  if (value === undefined) {
    const derived = derive();
    memo.set(digest, (slab, offset) => writeAscii(slab, offset, derived));
    value = derived;
  }
  return value;
}

/** The domain account of a TLD-less name, as bytes: a subdomain's parent comes from the key memo. */
function domainKeyBytesOf(name: string): Uint8Array {
  const labels = name.split(".");
  if (labels.length === 1) return nameAccountBytes(hashName(name), ZERO_KEY, ROOT_DOMAIN_BYTES);
  if (labels.length === 2) {
    const parent = addressToBytes(deriveDomainKey(labels[1]!));
    return nameAccountBytes(hashName(SUBDOMAIN_PREFIX + labels[0]!), ZERO_KEY, parent);
  }
  throw new RangeError("a domain has one or two labels");
}
/** The hashed names of the `SOL` records, the same for every domain (shared: read, never written). */
const SOL_V1_HASH = hashName(`${RECORD_V1_PREFIX}SOL`);
const SOL_V2_HASH = hashName(`${RECORD_V2_PREFIX}SOL`);
const hashedRecordName = (prefix: string, record: string): Uint8Array =>
  record === "SOL" ? (prefix === RECORD_V1_PREFIX ? SOL_V1_HASH : SOL_V2_HASH) : hashName(prefix + record);

const NFT_RECORD_SEED = utf8.encode("nft_record");
const TOKENIZED_NAME_SEED = utf8.encode("tokenized_name");
const recordV1KeyBytesOf = (domainKey: Uint8Array, record: string): Uint8Array =>
  nameAccountBytes(hashedRecordName(RECORD_V1_PREFIX, record), ZERO_KEY, domainKey);
const recordV2KeyBytesOf = (domainKey: Uint8Array, record: string): Uint8Array =>
  nameAccountBytes(hashedRecordName(RECORD_V2_PREFIX, record), CENTRAL_STATE_BYTES, domainKey);
const nftRecordKeyBytesOf = (domainKey: Uint8Array): Uint8Array =>
  programAddressBytes([NFT_RECORD_SEED, domainKey], NAME_TOKENIZER_BYTES);

const domainKeyOf = (name: string): Address => bytesToAddress(domainKeyBytesOf(name));
const recordV1KeyOf = (domainKey: Address, record: string): Address =>
  bytesToAddress(recordV1KeyBytesOf(addressToBytes(domainKey), record));
const recordV2KeyOf = (domainKey: Address, record: string): Address =>
  bytesToAddress(recordV2KeyBytesOf(addressToBytes(domainKey), record));
const nftRecordKeyOf = (domainKey: Address): Address => bytesToAddress(nftRecordKeyBytesOf(addressToBytes(domainKey)));
const tokenizedMintOf = (domainKey: Address): Address =>
  bytesToAddress(programAddressBytes([TOKENIZED_NAME_SEED, addressToBytes(domainKey)], NAME_TOKENIZER_BYTES));

/** Key of a TLD-less domain: `label` or `sub.label` (labels used exactly as given). */
export const deriveDomainKey = (name: string): Address => memoized(`d:${name}`, () => domainKeyOf(name));

/** V1 record `record` (e.g. `SOL`) of a domain or subdomain account. */
export const deriveRecordV1Key = (domainKey: Address, record: string): Address =>
  memoized(`r1:${domainKey}:${record}`, () => recordV1KeyOf(domainKey, record));

/** V2 record `record` of a domain or subdomain account. */
export const deriveRecordV2Key = (domainKey: Address, record: string): Address =>
  memoized(`r2:${domainKey}:${record}`, () => recordV2KeyOf(domainKey, record));

/** Tokenizer NFT record of a name account. */
export const deriveNftRecordKey = (domainKey: Address): Address =>
  memoized(`nr:${domainKey}`, () => nftRecordKeyOf(domainKey));

/** Mint of the NFT that represents a tokenized name account. */
export const deriveTokenizedMint = (domainKey: Address): Address =>
  memoized(`tm:${domainKey}`, () => tokenizedMintOf(domainKey));

/**
 * SRS record of a TLD-less `.sol` name. SRS names are flat: `sub.name` is
 * one name hashed whole, not a subdomain of `name`.
 */
export const deriveSrsRecordKey = (name: string): Address =>
  memoized(`srs:${name}`, () =>
    findProgramAddress(
      [utf8.encode("record"), addressToBytes(SOL_SRS_CLASS), sha256(utf8.encode(SRS_HASH_PREFIX + name))],
      SRS_PROGRAM_ID,
    ),
  );

/** The one Token-2022 mint an SRS record may name as its owner. */
export const deriveSrsMint = (recordKey: Address): Address =>
  memoized(`srsm:${recordKey}`, () =>
    findProgramAddress([utf8.encode("mint"), addressToBytes(recordKey)], SRS_PROGRAM_ID),
  );

/** Every account `/resolve` reads for a name, in one derivation. */
export interface ResolutionKeys {
  readonly domain: Address;
  readonly nftRecord: Address;
  readonly solV1: Address;
  readonly solV2: Address;
  /** Derived when first read: only a tokenized name needs it. */
  readonly mint: Address;
}

/**
 * The four keys every resolution reads are kept as ONE entry (the digest of
 * the name and four addresses: 213 bytes, outside the JavaScript heap;
 * 131,000 names fit), so a repeat lookup of any name that fits costs one
 * sha256 of the name and no curve work at all. The mint is left out: only tokenized names (a few
 * percent) ask for it, from the per-key memo.
 */
export const RESOLUTION_MEMO_BYTES = 28 * 1024 * 1024;
const resolutionMemo = createMemo("resolutions", RESOLUTION_MEMO_BYTES, 4 * ADDRESS_FIELD_BYTES);

const resolutionKeysAt = (slab: Uint8Array, offset: number): ResolutionKeys =>
  resolutionKeys(
    readAddress(slab, offset),
    readAddress(slab, offset + ADDRESS_FIELD_BYTES),
    readAddress(slab, offset + 2 * ADDRESS_FIELD_BYTES),
    readAddress(slab, offset + 3 * ADDRESS_FIELD_BYTES),
  );

export function deriveResolutionKeys(name: string): ResolutionKeys {
  const digest = digestOf(name);
  const held = resolutionMemo.get(digest, resolutionKeysAt);
  if (held !== undefined) return held;
  // Computed without the per-key memo: these keys are only ever asked for together. The domain's bytes
  // seed the other three as they are, not decoded again from its address.
  const domain = domainKeyBytesOf(name);
  const keys = resolutionKeys(
    bytesToAddress(domain),
    bytesToAddress(nftRecordKeyBytesOf(domain)),
    bytesToAddress(recordV1KeyBytesOf(domain, "SOL")),
    bytesToAddress(recordV2KeyBytesOf(domain, "SOL")),
  );
  resolutionMemo.set(digest, (slab, offset) => {
    writeAscii(slab, offset, keys.domain);
    writeAscii(slab, offset + ADDRESS_FIELD_BYTES, keys.nftRecord);
    writeAscii(slab, offset + 2 * ADDRESS_FIELD_BYTES, keys.solV1);
    writeAscii(slab, offset + 3 * ADDRESS_FIELD_BYTES, keys.solV2);
  });
  return keys;
}

function resolutionKeys(domain: Address, nftRecord: Address, solV1: Address, solV2: Address): ResolutionKeys {
  return {
    domain,
    nftRecord,
    solV1,
    solV2,
    get mint() {
      return deriveTokenizedMint(domain);
    },
  };
}

/** Primary ("favourite") domain account of a wallet, under the name-offers program. */
export const derivePrimaryDomainKey = (wallet: Address): Address =>
  memoized(`pd:${wallet}`, () =>
    findProgramAddress([utf8.encode("favourite_domain"), addressToBytes(wallet)], NAME_OFFERS_ID),
  );

/** Associated classic-token account of `wallet` for `mint` (off-curve wallets allowed). */
export const deriveAssociatedTokenAccount = (wallet: Address, mint: Address): Address =>
  memoized(`ata:${wallet}:${mint}`, () =>
    findProgramAddress(
      [addressToBytes(wallet), addressToBytes(TOKEN_PROGRAM_ID), addressToBytes(mint)],
      ASSOCIATED_TOKEN_PROGRAM_ID,
    ),
  );

/**
 * The reverse-lookup account `/reverse-key` names for a TLD-less name: a
 * two-label name is a subdomain, whose reverse is parented to its parent.
 */
export function deriveReverseKeyOfName(name: string): Address {
  const labels = name.split(".");
  const domain = deriveDomainKey(name);
  return labels.length === 2 ? deriveReverseKey(domain, deriveDomainKey(labels[1]!)) : deriveReverseKey(domain);
}

/** Reverse-lookup account; subdomain reverses are parented to the parent domain. */
export function deriveReverseKey(domainKey: Address, parentKey?: Address): Address {
  return memoized(`rv:${domainKey}:${parentKey ?? ""}`, () =>
    deriveNameAccount(hashName(domainKey), REVERSE_LOOKUP_CLASS, parentKey),
  );
}

/** Entries and allocated bytes of the derivation memos, for benchmarks and tests. */
export function derivationMemoStats(): Record<"keys" | "resolutions", MemoStats> {
  return { keys: memo.stats(), resolutions: resolutionMemo.stats() };
}
