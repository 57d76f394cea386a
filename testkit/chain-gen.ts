import type { Address } from "@solana/kit";
import { PublicKey } from "@solana/web3.js";
import {
  type FixtureAccount,
  type Identity,
  LOCALNET_PDA_PROGRAM,
  Ledger,
  TOKENIZER_CENTRAL_STATE,
  type TokenBalance,
  associatedTokenAddress,
  encodeMint,
  encodeNameRegistry,
  encodeNftRecord,
  encodeRecordV1Sol,
  encodeRecordV2Account,
  encodeTokenAccount,
  identity,
  pdaAddress,
  recordV1SolMessage,
} from "../src/localnet/index.js";
import { addressToBytes, bytesEqual, bytesToAddress, toHex, utf8 } from "../src/sns/bytes.js";
import {
  CENTRAL_STATE_SNS_RECORDS,
  NAME_PROGRAM_ID,
  NAME_TOKENIZER_ID,
  SNS_ROOT_DOMAIN,
  SYSTEM_PROGRAM_ID,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
} from "../src/sns/constants.js";
import {
  deriveDomainKey,
  deriveNftRecordKey,
  deriveRecordV1Key,
  deriveRecordV2Key,
  deriveTokenizedMint,
} from "../src/sns/derive.js";
import {
  NON_CANONICAL_ENCODINGS,
  NON_CANONICAL_SMALL_ORDER_R,
  SMALL_ORDER_ENCODINGS,
  malleated,
  nonCanonicalRSignature,
  signFast,
  smallOrderForgery,
} from "./chain-gen-sig.js";
import type { Rng } from "./rng.js";

export { type Rng, createRng, freshSeed } from "./rng.js";

/*
 * Random SNS chain states for resolution. Each state is one TLD-less name,
 * the accounts that decide how it resolves, a label naming the branch or edge
 * it was built to reach, and what the official SDK (3.0.26) does with it
 * under each PDA-owner policy.
 *
 *   const states = generateStates(createRng(seed), 1000);
 *   const ledger = buildLedger(states); // → startLocalnet({ ledger }) / startStack(ledger)
 *   // GET /resolve/<encodeURIComponent(state.name)>.sns, compare with state.expected.none
 *
 * A state is built top-down along the resolution precedence (domain → NFT
 * record → V2 SOL record → V1 SOL record → registry owner): layers above the
 * labelled one are random fall-through variants, the labelled layer is the
 * edge itself, and layers below are random junk (malformed included) that
 * must never be reached. Labels are scheduled in rng-shuffled rounds, so each
 * appears ⌊count / labels⌋ or one more times and a seed yields the same first
 * states whatever the count. No two states write the same address, so any
 * subset can be loaded on its own.
 */

// ---------------------------------------------------------------- public types

export const BRANCH_LABELS = [
  "domain/missing",
  "domain/short",
  "domain/foreign-program",
  "owner/on-curve",
  "owner/zero",
  "owner/random-bytes",
  "owner/non-canonical",
  "owner/small-order",
  "owner/pda-allowed-program",
  "owner/pda-other-program",
  "owner/pda-no-account",
  "nft/active",
  "nft/active-pda-holder",
  "nft/active-token-2022",
  "nft/active-tied-holders",
  "nft/burned",
  "nft/no-token-accounts",
  "nft/no-mint",
  "nft/mint-not-a-mint",
  "nft/largest-amount-not-1",
  "nft/holder-vanished",
  "nft/holder-short",
  "nft/holder-short-readable",
  "nft/holder-not-token-account",
  "nft/inactive",
  "nft/wrong-tag",
  "nft/short-record",
  "v2/valid",
  "v2/stale",
  "v2/stale-roa-mismatch",
  "v2/wrong-validation",
  "v2/roa-mismatch",
  "v2/content-short",
  "v2/content-long",
  "v2/trailing-bytes",
  "v2/shorter-than-ids",
  "v2/header-short",
  "v2/invalid-validation",
  "v1/valid",
  "v1/trailing-bytes",
  "v1/wrong-signer",
  "v1/corrupted-signature",
  "v1/raw-bytes-message",
  "v1/uppercase-hex-message",
  "v1/wrong-record-key",
  "v1/malleable-s",
  "v1/forged-small-order-owner",
  "v1/non-canonical-r-canonical-hash",
  "v1/non-canonical-r-raw-hash",
  "v1/short-payload",
] as const;
export type BranchLabel = (typeof BRANCH_LABELS)[number];

/** Registry-owner policies for off-curve owners (the SDK's `allowPda` config, the gateway's `ALLOW_PDA_OWNERS`). */
export const PDA_POLICIES = ["none", "any", "programs"] as const;
export type PdaPolicyName = (typeof PDA_POLICIES)[number];
/** The one program on the `programs` policy's allow-list. */
export const ALLOWED_PDA_PROGRAM: Address = LOCALNET_PDA_PROGRAM;

/** Where a resolved key came from (SNS-IP 5 precedence). */
export type KeySource = "nft-holder" | "v2" | "v1" | "owner";

/** SDK error `type`s resolution can raise, plus `Generic` for exceptions without one. */
export type SdkErrorClass =
  | "DomainDoesNotExist"
  | "RecordMalformed"
  | "WrongValidation"
  | "InvalidRoA"
  | "CouldNotFindNftOwner"
  | "PdaOwnerNotAllowed"
  | "Generic";

export type SdkOutcome =
  | { readonly kind: "key"; readonly key: string; readonly source: KeySource }
  | { readonly kind: "error"; readonly error: SdkErrorClass };

export interface Expectation {
  /** What `resolve(connection, name + ".sol", config)` of the official SDK does. */
  readonly sdk: SdkOutcome;
  /**
   * Set when resolution reaches on-chain data that cannot be decoded with the
   * documented layout; the gateway then answers 422 whatever the SDK does.
   */
  readonly undecodable?: string;
}

export interface LargestAccountsOverride {
  readonly mint: Address;
  readonly balances: readonly TokenBalance[];
}

export interface GeneratedState {
  /** TLD-less, already lowercase and trimmed: `label` or `sub.parent`. */
  readonly name: string;
  readonly label: BranchLabel;
  /** Shape of the name: ascii / unicode / emoji / special, top-level / subdomain, … */
  readonly tags: readonly string[];
  readonly accounts: readonly FixtureAccount[];
  /**
   * `getTokenLargestAccounts` answers that no ledger content can produce (the
   * holder account changed between the two RPC calls); apply with `buildLedger`.
   */
  readonly largestAccounts?: LargestAccountsOverride;
  readonly expected: Readonly<Record<PdaPolicyName, Expectation>>;
}

export interface GenerateOptions {
  /**
   * Keeps names unique across generations sharing a ledger ([a-z0-9]+);
   * defaults to one derived from the rng's seed and how often it generated.
   */
  readonly namespace?: string;
  /** Labels to schedule (default: all). */
  readonly labels?: readonly BranchLabel[];
  /** Share of subdomain names (default 0.3). */
  readonly subdomainShare?: number;
  /**
   * Wallets owners and signers are drawn from (default 48). A small pool keeps
   * generation cheap; a pool as large as the name count gives (nearly) every
   * name its own owner, as on mainnet, so per-owner memos are not flattered.
   * The rng draws the same numbers whatever the pool, so only keys change.
   */
  readonly identityPool?: number;
}

// ---------------------------------------------------------------- names

const ASCII = "abcdefghijklmnopqrstuvwxyz0123456789-";
const UNICODE = [
  ..."éüñßøåжяλωςı中文ก",
  "e\u0301", // decomposed é: neither side normalizes
  "日本",
  "한국",
  "א",
  "ع",
  "．", // full-width and ideographic full stops are label characters, not separators
  "。",
];
const EMOJI = ["🔥", "😀", "👩‍💻", "🇫🇷", "❤️", "🦀", "👍🏽", "🫠", "🐶", "1️⃣"];
/** Characters that need percent-encoding in a path, or look like an encoding themselves. */
const SPECIAL = [...`%+#?&'~!$()*,;=@: []^|\`{}\\"<>`, "%20", "%2e"];
/** Parent labels that look like TLDs: `x.sol` must reach the SDK as `x.sol.sol` and stay a subdomain. */
const TLD_LIKE_PARENTS = ["sol", "sns"];

type NameShape = "ascii" | "unicode" | "emoji" | "special";

function asciiRun(rng: Rng, min: number, max: number): string {
  let out = "";
  for (let i = rng.int(min, max); i > 0; i--) out += ASCII[rng.int(0, ASCII.length - 1)];
  return out;
}

function labelStem(rng: Rng, shape: NameShape): string {
  switch (shape) {
    case "ascii":
      return asciiRun(rng, 0, 12);
    case "unicode":
      return Array.from({ length: rng.int(1, 4) }, () => rng.pick(UNICODE) + asciiRun(rng, 0, 2)).join("");
    case "emoji":
      return Array.from({ length: rng.int(1, 3) }, () => rng.pick(EMOJI) + asciiRun(rng, 0, 1)).join("");
    case "special":
      // Leading whitespace would be trimmed by the gateway, so never start with a special.
      return asciiRun(rng, 1, 3) + Array.from({ length: rng.int(1, 3) }, () => rng.pick(SPECIAL)).join("");
  }
}

interface NamePlan {
  readonly name: string;
  readonly tags: string[];
  /** Top-level parent name whose account this state creates, if any. */
  readonly parentToCreate?: string;
}

function planName(rng: Rng, unique: string, subdomainShare: number): NamePlan {
  const shape = rng.pick<NameShape>(["ascii", "ascii", "unicode", "emoji", "special"]);
  const own = `${labelStem(rng, shape)}_${unique}`;
  if (!rng.bool(subdomainShare)) return { name: own, tags: [shape, "top-level"] };
  if (rng.bool(0.15)) {
    const parent = rng.pick(TLD_LIKE_PARENTS);
    return { name: `${own}.${parent}`, tags: [shape, "subdomain", "tld-like-parent"] };
  }
  const parent = `${labelStem(rng, rng.pick<NameShape>(["ascii", "unicode", "emoji"]))}_${unique}_p`;
  const create = rng.bool();
  return {
    name: `${own}.${parent}`,
    tags: [shape, "subdomain", create ? "parent-account" : "no-parent-account"],
    ...(create ? { parentToCreate: parent } : {}),
  };
}

// ---------------------------------------------------------------- keys and owners

const isOnCurve = (bytes: Uint8Array): boolean => PublicKey.isOnCurve(bytes);
const IDENTITY_POOL = 48;
/** Pool size of the generation an rng is running (GenerateOptions.identityPool), if not the default. */
const identityPools = new WeakMap<Rng, number>();
const randomIdentity = (rng: Rng): Identity =>
  identity(`chain-gen-${rng.int(0, (identityPools.get(rng) ?? IDENTITY_POOL) - 1)}`);
const OTHER_PROGRAMS: readonly Address[] = [SYSTEM_PROGRAM_ID, TOKEN_PROGRAM_ID, NAME_PROGRAM_ID, NAME_TOKENIZER_ID];

type OwnerKind = "identity" | "zero" | "random-bytes" | "non-canonical" | "small-order" | "pda";

interface Owner {
  readonly kind: OwnerKind;
  readonly bytes: Uint8Array;
  readonly address: Address;
  /** web3.js `PublicKey.isOnCurve`, i.e. exactly the SDK's PDA test. */
  readonly onCurve: boolean;
  readonly signer?: Identity;
  /** Program owning an account at this address (only ever set for addresses unique to one state). */
  readonly accountProgram: Address | null;
}

function owner(
  kind: OwnerKind,
  bytes: Uint8Array,
  extra: { signer?: Identity; accountProgram?: Address | null } = {},
): Owner {
  return {
    kind,
    bytes,
    address: bytesToAddress(bytes),
    onCurve: isOnCurve(bytes),
    accountProgram: extra.accountProgram ?? null,
    ...(extra.signer ? { signer: extra.signer } : {}),
  };
}

function makeOwner(rng: Rng, kind: OwnerKind, name: string, pdaAccount?: "allowed" | "other" | "none"): Owner {
  const accountProgram = (choice: "allowed" | "other" | "none" | undefined) => {
    const pick = choice ?? rng.pick(["allowed", "other", "none"] as const);
    return pick === "allowed" ? ALLOWED_PDA_PROGRAM : pick === "other" ? rng.pick(OTHER_PROGRAMS) : null;
  };
  switch (kind) {
    case "identity": {
      const signer = randomIdentity(rng);
      return owner(kind, signer.publicKey, { signer });
    }
    case "zero":
      return owner(kind, new Uint8Array(32));
    case "random-bytes": {
      const bytes = rng.bytes(32);
      return owner(kind, bytes, { accountProgram: isOnCurve(bytes) ? null : accountProgram(pdaAccount) });
    }
    case "non-canonical":
      return owner(kind, rng.pick(NON_CANONICAL_ENCODINGS));
    case "small-order":
      return owner(kind, rng.pick(SMALL_ORDER_ENCODINGS));
    case "pda":
      return owner(kind, addressToBytes(pdaAddress(`owner:${name}`)), { accountProgram: accountProgram(pdaAccount) });
  }
}

function randomOwnerKind(rng: Rng): OwnerKind {
  const roll = rng.next();
  if (roll < 0.5) return "identity";
  if (roll < 0.6) return "pda";
  if (roll < 0.75) return "random-bytes";
  if (roll < 0.85) return "zero";
  if (roll < 0.93) return "small-order";
  return "non-canonical";
}

/** A key a record or NFT may point at: any 32 bytes, on or off the curve. */
function randomTarget(rng: Rng, name: string): Uint8Array {
  const roll = rng.next();
  if (roll < 0.4) return randomIdentity(rng).publicKey;
  if (roll < 0.7) return rng.bytes(32);
  if (roll < 0.85) return addressToBytes(pdaAddress(`target:${name}:${rng.int(0, 1e9)}`));
  if (roll < 0.9) return new Uint8Array(32);
  return rng.pick([...SMALL_ORDER_ENCODINGS, ...NON_CANONICAL_ENCODINGS]);
}

function otherThan(rng: Rng, avoid: Uint8Array): Uint8Array {
  for (;;) {
    const bytes = rng.bytes(32);
    if (!bytesEqual(bytes, avoid)) return bytes;
  }
}

// ---------------------------------------------------------------- layers

/** What one layer of the precedence does when resolution reaches it. */
type Effect =
  | { readonly kind: "fall" }
  | { readonly kind: "key"; readonly key: Uint8Array; readonly source: KeySource }
  | { readonly kind: "error"; readonly error: SdkErrorClass }
  | { readonly kind: "undecodable"; readonly what: string; readonly sdk: SdkOutcome };

const FALL: Effect = { kind: "fall" };
const GENERIC: SdkOutcome = { kind: "error", error: "Generic" };
const undecodable = (what: string): Effect => ({ kind: "undecodable", what, sdk: GENERIC });

interface Keys {
  readonly domain: Address;
  readonly nftRecord: Address;
  readonly solV1: Address;
  readonly solV2: Address;
  readonly mint: Address;
}

interface Build {
  readonly rng: Rng;
  readonly name: string;
  readonly keys: Keys;
  readonly owner: Owner;
  readonly accounts: FixtureAccount[];
  largest?: LargestAccountsOverride;
}

function put(b: Build, address: Address, program: Address, data: Uint8Array): void {
  b.accounts.push({ address, account: { owner: program, data } });
}

const concat = (...parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
};

type Mode = "fall" | "any";

// NFT record and tokenization -------------------------------------------------

const NFT_KINDS = [
  "active",
  "active-pda-holder",
  "active-token-2022",
  "active-tied-holders",
  "burned",
  "no-token-accounts",
  "no-mint",
  "mint-not-a-mint",
  "largest-amount-not-1",
  "holder-vanished",
  "holder-short",
  "holder-short-readable",
  "holder-not-token-account",
  "inactive",
  "wrong-tag",
  "short-record",
] as const;
type NftKind = (typeof NFT_KINDS)[number] | "none";
const NFT_FALL_KINDS: readonly NftKind[] = ["none", "none", "inactive", "wrong-tag"];

const WRONG_TAGS = [0, 1, 4, 5, 127, 128, 255];

function nftRecordData(b: Build, tag: number): Uint8Array {
  const record = encodeNftRecord({
    tag,
    nonce: b.rng.int(0, 255),
    nameAccount: b.keys.domain,
    owner: bytesToAddress(randomTarget(b.rng, b.name)),
    nftMint: b.keys.mint,
  });
  return b.rng.bool(0.2) ? concat(record, b.rng.bytes(b.rng.int(1, 16))) : record;
}

function putMint(b: Build, supply: bigint, program: Address = TOKEN_PROGRAM_ID): void {
  put(b, b.keys.mint, program, encodeMint({ supply, decimals: 0, mintAuthority: TOKENIZER_CENTRAL_STATE }));
}

function putTokenAccount(b: Build, holder: Uint8Array, amount: bigint, program: Address = TOKEN_PROGRAM_ID): Address {
  const address = b.rng.bool(0.8)
    ? associatedTokenAddress(bytesToAddress(holder), b.keys.mint)
    : bytesToAddress(otherThan(b.rng, holder));
  const state = b.rng.pick([1, 1, 2]); // frozen accounts still count
  const data = encodeTokenAccount({ mint: b.keys.mint, owner: bytesToAddress(holder), amount, state });
  put(b, address, program, data);
  return address;
}

/** Token accounts holding nothing: they sort after any holder and never change the outcome. */
function putEmptyTokenAccounts(b: Build): void {
  for (let i = b.rng.int(0, 2); i > 0; i--) putTokenAccount(b, b.rng.bytes(32), 0n);
}

/** Leftover tokenization under a non-active record: whatever it says must be ignored. */
function putIgnoredTokenization(b: Build): void {
  const roll = b.rng.next();
  if (roll < 0.3) return;
  putMint(b, 1n);
  if (roll < 0.8) putTokenAccount(b, randomTarget(b.rng, b.name), 1n);
}

function nftLayer(b: Build, kind: NftKind): Effect {
  const { rng } = b;
  if (kind === "none") return FALL;
  if (kind === "short-record") {
    const length = rng.int(0, 97);
    put(b, b.keys.nftRecord, NAME_TOKENIZER_ID, nftRecordData(b, 2).subarray(0, length));
    if (rng.bool()) putIgnoredTokenization(b);
    return undecodable(`NFT record of ${length} bytes`);
  }
  if (kind === "inactive" || kind === "wrong-tag") {
    put(b, b.keys.nftRecord, NAME_TOKENIZER_ID, nftRecordData(b, kind === "inactive" ? 3 : rng.pick(WRONG_TAGS)));
    putIgnoredTokenization(b);
    return FALL;
  }
  put(b, b.keys.nftRecord, NAME_TOKENIZER_ID, nftRecordData(b, 2));
  const noHolder: Effect = { kind: "error", error: "CouldNotFindNftOwner" };
  switch (kind) {
    case "active":
    case "active-pda-holder":
    case "active-token-2022": {
      const program = kind === "active-token-2022" ? TOKEN_2022_PROGRAM_ID : TOKEN_PROGRAM_ID;
      const holder =
        kind === "active-pda-holder" ? addressToBytes(pdaAddress(`holder:${b.name}`)) : randomTarget(rng, b.name);
      putMint(b, 1n, program);
      putTokenAccount(b, holder, 1n, program);
      putEmptyTokenAccounts(b);
      return { kind: "key", key: holder, source: "nft-holder" };
    }
    case "active-tied-holders": {
      // Equal balances keep the node's order; both clients read the same first entry.
      const first = randomTarget(rng, b.name);
      const second = otherThan(rng, first);
      putMint(b, 2n);
      putTokenAccount(b, first, 1n);
      putTokenAccount(b, second, 1n);
      return { kind: "key", key: first, source: "nft-holder" };
    }
    case "burned":
      putMint(b, 0n);
      putTokenAccount(b, randomTarget(rng, b.name), 0n);
      putEmptyTokenAccounts(b);
      return noHolder;
    case "no-token-accounts":
      putMint(b, rng.pick([0n, 1n]));
      return noHolder;
    case "no-mint":
      // The node answers -32602 for a mint that does not exist, even with token accounts of it around.
      if (rng.bool()) putTokenAccount(b, randomTarget(rng, b.name), 1n);
      return noHolder;
    case "mint-not-a-mint": {
      const variant = rng.int(0, 3);
      const mint = encodeMint({ supply: 1n, decimals: 0 });
      if (variant === 0) put(b, b.keys.mint, rng.pick([SYSTEM_PROGRAM_ID, NAME_PROGRAM_ID]), mint);
      if (variant === 1) put(b, b.keys.mint, TOKEN_PROGRAM_ID, mint.map((byte, i) => (i === 45 ? 0 : byte)));
      if (variant === 2) put(b, b.keys.mint, TOKEN_PROGRAM_ID, concat(mint, rng.bytes(rng.int(1, 100))));
      if (variant === 3) {
        const extended = concat(mint, new Uint8Array(166 - mint.length + rng.int(0, 40)));
        extended[165] = 2; // an account marker, not a mint one
        put(b, b.keys.mint, TOKEN_2022_PROGRAM_ID, extended);
      }
      if (rng.bool()) putTokenAccount(b, randomTarget(rng, b.name), 1n);
      return noHolder;
    }
    case "largest-amount-not-1": {
      const amount = rng.pick([2n, 3n, 255n, 256n, 2n ** 32n + 1n, 2n ** 63n, 2n ** 64n - 1n]);
      const holder = randomTarget(rng, b.name);
      putMint(b, amount);
      putTokenAccount(b, holder, amount);
      // A smaller account holding exactly one token does not help: only the largest is read.
      if (rng.bool()) putTokenAccount(b, otherThan(rng, holder), 1n);
      return noHolder;
    }
    case "holder-vanished": {
      putMint(b, 1n);
      const gone = bytesToAddress(rng.bytes(32));
      b.largest = { mint: b.keys.mint, balances: [{ address: gone, amount: 1n }] };
      return noHolder;
    }
    case "holder-short":
    case "holder-short-readable":
    case "holder-not-token-account": {
      putMint(b, 1n);
      const address = bytesToAddress(rng.bytes(32));
      const holder = randomTarget(rng, b.name);
      const full = encodeTokenAccount({ mint: b.keys.mint, owner: bytesToAddress(holder), amount: 1n });
      b.largest = { mint: b.keys.mint, balances: [{ address, amount: 1n }] };
      if (kind === "holder-not-token-account") {
        // 165+ bytes under another program: the reader checks neither program nor mint.
        const program = rng.pick(OTHER_PROGRAMS.filter((id) => id !== TOKEN_PROGRAM_ID));
        put(b, address, program, concat(full, rng.bytes(rng.int(0, 40))));
        return { kind: "key", key: holder, source: "nft-holder" };
      }
      // spl-token's layout reads every numeric field from the first 133 bytes
      // and tolerates a truncated trailing close-authority key, so only
      // shorter accounts make the SDK throw.
      // The gateway reads such accounts the same way, so only the shorter ones are undecodable.
      const readable = kind === "holder-short-readable";
      const length = readable ? rng.int(133, 164) : rng.int(0, 132);
      put(b, address, TOKEN_PROGRAM_ID, full.subarray(0, length));
      if (readable) return { kind: "key", key: holder, source: "nft-holder" };
      return { kind: "undecodable", what: `NFT holder token account of ${length} bytes`, sdk: GENERIC };
    }
  }
}

// V2 SOL record -------------------------------------------------------------------

const V2_KINDS = [
  "valid",
  "stale",
  "stale-roa-mismatch",
  "wrong-validation",
  "roa-mismatch",
  "content-short",
  "content-long",
  "trailing-bytes",
  "shorter-than-ids",
  "header-short",
  "invalid-validation",
] as const;
type V2Kind = (typeof V2_KINDS)[number] | "none";
const V2_FALL_KINDS: readonly V2Kind[] = ["none", "none", "stale", "stale-roa-mismatch"];

const ID_LENGTH = [0, 32, 20, 32] as const;

interface V2Fields {
  readonly sv: number;
  readonly rv: number;
  readonly stalenessId: Uint8Array;
  readonly roaId: Uint8Array;
  readonly content: Uint8Array;
  readonly contentLength?: number;
}

function v2Data(b: Build, f: V2Fields): Uint8Array {
  return encodeRecordV2Account({
    parent: addressToBytes(b.keys.domain),
    owner: addressToBytes(b.owner.address),
    stalenessValidation: f.sv,
    rightOfAssociationValidation: f.rv,
    stalenessId: f.stalenessId,
    roaId: f.roaId,
    content: f.content,
    ...(f.contentLength === undefined ? {} : { contentLength: f.contentLength }),
  });
}

/** Ids of the right length for arbitrary validation kinds; a 32-byte staleness id is usually the owner. */
function idsFor(b: Build, sv: number, rv: number, content: Uint8Array) {
  const { rng } = b;
  const sl = ID_LENGTH[sv as 0 | 1 | 2 | 3];
  const rl = ID_LENGTH[rv as 0 | 1 | 2 | 3];
  const stalenessId = sl === 32 && rng.bool(0.7) ? b.owner.bytes : rng.bytes(sl);
  const roaId = rl === 32 && content.length === 32 && rng.bool(0.5) ? content : rng.bytes(rl);
  return { stalenessId, roaId };
}

/** A contentLength field that disagrees with the content, which readers must ignore. */
const lyingLength = (rng: Rng): number | undefined =>
  rng.bool(0.3) ? rng.pick([0, 1, 31, 33, 64, 0xffffffff]) : undefined;

function v2Layer(b: Build, kind: V2Kind): Effect {
  const { rng } = b;
  if (kind === "none") return FALL;
  const target = randomTarget(rng, b.name);
  const write = (data: Uint8Array) => put(b, b.keys.solV2, NAME_PROGRAM_ID, data);
  const fresh = { sv: 1, rv: 1, stalenessId: b.owner.bytes, roaId: target, content: target };
  const anyValidation = () => rng.int(0, 3);
  switch (kind) {
    case "valid": {
      const contentLength = lyingLength(rng);
      write(v2Data(b, { ...fresh, ...(contentLength === undefined ? {} : { contentLength }) }));
      return { kind: "key", key: target, source: "v2" };
    }
    case "stale":
      write(v2Data(b, { ...fresh, stalenessId: otherThan(rng, b.owner.bytes) }));
      return FALL;
    case "stale-roa-mismatch":
      // Staleness is checked before the RoA, so a stale record never reaches the RoA check.
      write(v2Data(b, { ...fresh, stalenessId: otherThan(rng, b.owner.bytes), roaId: otherThan(rng, target) }));
      return FALL;
    case "wrong-validation": {
      let sv = 1;
      let rv = 1;
      while (sv === 1 && rv === 1) [sv, rv] = [anyValidation(), anyValidation()];
      write(v2Data(b, { sv, rv, ...idsFor(b, sv, rv, target), content: target }));
      return { kind: "error", error: "WrongValidation" };
    }
    case "roa-mismatch":
      write(v2Data(b, { ...fresh, roaId: otherThan(rng, target) }));
      return { kind: "error", error: "InvalidRoA" };
    case "content-short":
    case "content-long": {
      const length = kind === "content-short" ? rng.int(0, 31) : rng.int(33, 96);
      const content = rng.bytes(length);
      const [sv, rv] = rng.bool(0.6) ? [1, 1] : [anyValidation(), anyValidation()];
      write(v2Data(b, { sv, rv, ...idsFor(b, sv, rv, content), content }));
      return { kind: "error", error: "RecordMalformed" };
    }
    case "trailing-bytes":
      // contentLength says 32, but content runs to the end of the account.
      write(v2Data(b, { ...fresh, content: concat(target, rng.bytes(rng.int(1, 16))), contentLength: 32 }));
      return { kind: "error", error: "RecordMalformed" };
    case "shorter-than-ids": {
      let sv = 0;
      let rv = 0;
      while (ID_LENGTH[sv as 0]! + ID_LENGTH[rv as 0]! === 0) [sv, rv] = [anyValidation(), anyValidation()];
      const idsLength = ID_LENGTH[sv as 0]! + ID_LENGTH[rv as 0]!;
      const full = v2Data(b, { sv, rv, ...idsFor(b, sv, rv, target), content: target });
      write(full.subarray(0, 104 + rng.int(0, idsLength - 1)));
      // The SDK slices the ids short and finds empty content.
      return { kind: "error", error: "RecordMalformed" };
    }
    case "header-short": {
      const length = rng.int(0, 103);
      write(v2Data(b, fresh).subarray(0, length));
      return undecodable(`V2 SOL record of ${length} bytes`);
    }
    case "invalid-validation": {
      const bad = () => rng.pick([4, 5, 255, 256, 0x7fff, 0xffff]);
      const [sv, rv] = rng.pick([
        [bad(), 1],
        [1, bad()],
        [bad(), bad()],
        [0, bad()],
      ]) as [number, number];
      const roaId = rng.bytes(rng.pick([0, 20, 32]));
      write(v2Data(b, { sv, rv, stalenessId: b.owner.bytes, roaId, content: target }));
      return undecodable(`V2 SOL record with validations ${sv}/${rv}`);
    }
  }
}

// V1 SOL record -----------------------------------------------------------------

const V1_KINDS = [
  "valid",
  "trailing-bytes",
  "wrong-signer",
  "corrupted-signature",
  "raw-bytes-message",
  "uppercase-hex-message",
  "wrong-record-key",
  "malleable-s",
  "forged-small-order-owner",
  "non-canonical-r-canonical-hash",
  "non-canonical-r-raw-hash",
  "short-payload",
] as const;
type V1Kind = (typeof V1_KINDS)[number] | "none";
const V1_FALL_KINDS: readonly V1Kind[] = [
  "none",
  "none",
  "none",
  "wrong-signer",
  "corrupted-signature",
  "raw-bytes-message",
  "uppercase-hex-message",
  "wrong-record-key",
  "malleable-s",
];
/** Kinds that only fit some owners. */
const needsSigner = (kind: V1Kind) =>
  kind === "valid" ||
  kind === "trailing-bytes" ||
  kind === "non-canonical-r-canonical-hash" ||
  kind === "non-canonical-r-raw-hash";

function v1Layer(b: Build, kind: V1Kind): Effect {
  const { rng, owner: o, keys } = b;
  if (kind === "none") return FALL;
  const target = randomTarget(rng, b.name);
  const targetAddress = bytesToAddress(target);
  const message = recordV1SolMessage(targetAddress, keys.solV1);
  const ownerSigner = o.signer ?? randomIdentity(rng);
  const write = (signature: Uint8Array, extra?: Uint8Array) => {
    const data = encodeRecordV1Sol({ domainKey: keys.domain, owner: o.address, target: targetAddress, signature });
    put(b, keys.solV1, NAME_PROGRAM_ID, extra ? concat(data, extra) : data);
  };
  const accepted: Effect = { kind: "key", key: target, source: "v1" };
  switch (kind) {
    case "valid":
      write(signFast(ownerSigner, message));
      return accepted;
    case "trailing-bytes":
      write(signFast(ownerSigner, message), rng.bytes(rng.int(1, 64)));
      return accepted;
    case "wrong-signer": {
      let signer = randomIdentity(rng);
      while (bytesEqual(signer.publicKey, o.bytes)) signer = randomIdentity(rng);
      write(signFast(signer, message));
      return FALL;
    }
    case "corrupted-signature": {
      const signature = signFast(ownerSigner, message);
      const index = rng.int(0, 63);
      signature[index] = signature[index]! ^ (1 << rng.int(0, 7));
      write(signature);
      return FALL;
    }
    case "raw-bytes-message":
      write(signFast(ownerSigner, concat(target, addressToBytes(keys.solV1))));
      return FALL;
    case "uppercase-hex-message":
      write(signFast(ownerSigner, utf8.encode((toHex(target) + toHex(addressToBytes(keys.solV1))).toUpperCase())));
      return FALL;
    case "wrong-record-key": {
      const other = rng.pick([keys.domain, keys.solV2, keys.nftRecord]);
      write(signFast(ownerSigner, recordV1SolMessage(targetAddress, other)));
      return FALL;
    }
    case "malleable-s":
      write(malleated(signFast(ownerSigner, message)));
      return FALL;
    case "forged-small-order-owner":
      write(smallOrderForgery(BigInt(rng.int(1, 2 ** 31)) * BigInt(rng.int(1, 2 ** 31))));
      return accepted;
    case "non-canonical-r-canonical-hash":
    case "non-canonical-r-raw-hash": {
      const hashOver = kind === "non-canonical-r-canonical-hash" ? "canonical" : "raw";
      write(nonCanonicalRSignature(ownerSigner, message, rng.pick(NON_CANONICAL_SMALL_ORDER_R), hashOver));
      // The SDK's verifier hashes the canonical re-encoding of R.
      return hashOver === "canonical" ? accepted : FALL;
    }
    case "short-payload": {
      const length = rng.int(0, 191);
      const full = encodeRecordV1Sol({
        domainKey: keys.domain,
        owner: o.address,
        target: targetAddress,
        signature: signFast(ownerSigner, message),
      });
      put(b, keys.solV1, NAME_PROGRAM_ID, full.subarray(0, length));
      return undecodable(`V1 SOL record of ${length} bytes`);
    }
  }
}

// Registry owner ----------------------------------------------------------------

function ownerEffect(o: Owner, policy: PdaPolicyName): Effect {
  const resolved: Effect = { kind: "key", key: o.bytes, source: "owner" };
  if (o.onCurve || policy === "any") return resolved;
  if (policy === "programs" && o.accountProgram === ALLOWED_PDA_PROGRAM) return resolved;
  return { kind: "error", error: "PdaOwnerNotAllowed" };
}

function putOwnerAccount(b: Build): void {
  const program = b.owner.accountProgram;
  if (program !== null) put(b, b.owner.address, program, b.rng.bytes(b.rng.int(0, 64)));
}

// ---------------------------------------------------------------- label recipes

type DomainKind = "present" | "missing" | "short" | "foreign-program";

interface Recipe {
  readonly domain: DomainKind;
  readonly owner: OwnerKind | "random";
  readonly pdaAccount?: "allowed" | "other" | "none";
  readonly nft: NftKind | Mode;
  readonly v2: V2Kind | Mode;
  readonly v1: V1Kind | Mode;
}

function recipeFor(label: BranchLabel): Recipe {
  const [group, edge] = label.split("/") as [string, string];
  switch (group) {
    case "domain":
      return { domain: edge as DomainKind, owner: "random", nft: "any", v2: "any", v1: "any" };
    case "owner": {
      const pda = edge.startsWith("pda-") ? edge.slice(4) : undefined;
      const pdaAccount = pda === "allowed-program" ? "allowed" : pda === "other-program" ? "other" : "none";
      return {
        domain: "present",
        owner: pda ? "pda" : edge === "on-curve" ? "identity" : (edge as OwnerKind),
        ...(pda ? { pdaAccount } : {}),
        nft: "fall",
        v2: "fall",
        v1: "fall",
      } as Recipe;
    }
    case "nft":
      return { domain: "present", owner: "random", nft: edge as NftKind, v2: "any", v1: "any" };
    case "v2":
      return { domain: "present", owner: "random", nft: "fall", v2: edge as V2Kind, v1: "any" };
    default: {
      const v1 = edge as V1Kind;
      const ownerKind: OwnerKind | "random" =
        v1 === "forged-small-order-owner" ? "small-order" : needsSigner(v1) ? "identity" : "random";
      return { domain: "present", owner: ownerKind, nft: "fall", v2: "fall", v1 };
    }
  }
}

/** The kind a layer gets: the recipe's own, a fall-through variant, or for "any" none or any kind. */
function chooseKind<K extends string>(rng: Rng, mode: K | Mode, kinds: readonly K[], fallKinds: readonly K[]): K | "none" {
  if (mode === "fall") return rng.pick(fallKinds);
  if (mode === "any") return rng.bool(0.4) ? "none" : rng.pick(kinds);
  return mode;
}

function chooseV1(rng: Rng, mode: V1Kind | Mode, o: Owner): V1Kind {
  if (mode === "fall") return rng.pick(V1_FALL_KINDS);
  if (mode !== "any") return mode;
  if (rng.bool(0.4)) return "none";
  // Junk below the deciding layer never includes the non-canonical-R pair, so
  // a verifier disagreement on those shows up under their own labels only.
  const fits = V1_KINDS.filter(
    (kind) =>
      !kind.startsWith("non-canonical-r") &&
      (!needsSigner(kind) || o.signer !== undefined) &&
      (kind !== "forged-small-order-owner" || o.kind === "small-order"),
  );
  return rng.pick(fits);
}

function domainLayer(b: Build, kind: DomainKind, parentKey: Address | undefined): Effect {
  if (kind === "missing") return { kind: "error", error: "DomainDoesNotExist" };
  const header = {
    parent: b.rng.bool(0.9) ? (parentKey ?? SNS_ROOT_DOMAIN) : bytesToAddress(b.rng.bytes(32)),
    owner: b.owner.address,
    ...(b.rng.bool(0.1) ? { nameClass: bytesToAddress(b.rng.bytes(32)) } : {}),
  };
  const full = encodeNameRegistry(header, b.rng.pick([0, 0, 1, 32, 200, 1000, b.rng.int(0, 2000)]));
  if (kind === "short") {
    const length = b.rng.int(0, 95);
    put(b, b.keys.domain, NAME_PROGRAM_ID, full.subarray(0, length));
    return undecodable(`domain account of ${length} bytes`);
  }
  put(b, b.keys.domain, kind === "foreign-program" ? b.rng.pick(OTHER_PROGRAMS) : NAME_PROGRAM_ID, full);
  return FALL;
}

function expectation(layers: readonly Effect[], o: Owner, policy: PdaPolicyName): Expectation {
  for (const effect of [...layers, ownerEffect(o, policy)]) {
    switch (effect.kind) {
      case "fall":
        continue;
      case "key":
        return { sdk: { kind: "key", key: bytesToAddress(effect.key), source: effect.source } };
      case "error":
        return { sdk: { kind: "error", error: effect.error } };
      case "undecodable":
        return { sdk: effect.sdk, undecodable: effect.what };
    }
  }
  throw new Error("the owner layer always decides");
}

function generateState(rng: Rng, label: BranchLabel, unique: string, options: GenerateOptions): GeneratedState {
  const plan = planName(rng, unique, options.subdomainShare ?? 0.3);
  const name = plan.name;
  if (name !== name.trim().toLowerCase()) throw new Error(`generated name ${JSON.stringify(name)} is not normalized`);
  const domain = deriveDomainKey(name);
  const keys: Keys = {
    domain,
    nftRecord: deriveNftRecordKey(domain),
    solV1: deriveRecordV1Key(domain, "SOL"),
    solV2: deriveRecordV2Key(domain, "SOL"),
    mint: deriveTokenizedMint(domain),
  };
  const recipe = recipeFor(label);
  const o = makeOwner(rng, recipe.owner === "random" ? randomOwnerKind(rng) : recipe.owner, name, recipe.pdaAccount);
  const b: Build = { rng, name, keys, owner: o, accounts: [] };

  const parentLabel = name.split(".")[1];
  const parentKey = parentLabel === undefined ? undefined : deriveDomainKey(parentLabel);
  if (plan.parentToCreate !== undefined) {
    const parentOwner = randomIdentity(rng).address;
    const parentData = encodeNameRegistry({ parent: SNS_ROOT_DOMAIN, owner: parentOwner }, 64);
    put(b, deriveDomainKey(plan.parentToCreate), NAME_PROGRAM_ID, parentData);
  }

  const layers: Effect[] = [domainLayer(b, recipe.domain, parentKey)];
  layers.push(nftLayer(b, chooseKind(rng, recipe.nft, NFT_KINDS, NFT_FALL_KINDS)));
  layers.push(v2Layer(b, chooseKind(rng, recipe.v2, V2_KINDS, V2_FALL_KINDS)));
  layers.push(v1Layer(b, chooseV1(rng, recipe.v1, o)));
  putOwnerAccount(b);

  const expected = Object.fromEntries(PDA_POLICIES.map((policy) => [policy, expectation(layers, o, policy)])) as Record<
    PdaPolicyName,
    Expectation
  >;
  return {
    name,
    label,
    tags: plan.tags,
    accounts: b.accounts,
    ...(b.largest ? { largestAccounts: b.largest } : {}),
    expected,
  };
}

/**
 * `count` random states, labels scheduled in shuffled rounds so that each
 * label appears ⌊count / labels⌋ or one more times. Names are unique within
 * `options.namespace` (default: derived from the seed).
 */
export function generateStates(rng: Rng, count: number, options: GenerateOptions = {}): GeneratedState[] {
  const labels = options.labels ?? BRANCH_LABELS;
  const namespace = options.namespace ?? defaultNamespace(rng);
  if (!/^[a-z0-9]+$/.test(namespace)) throw new RangeError(`namespace must be [a-z0-9]+, got ${namespace}`);
  const states: GeneratedState[] = [];
  let round: BranchLabel[] = [];
  if (options.identityPool !== undefined) identityPools.set(rng, Math.max(2, Math.floor(options.identityPool)));
  try {
    for (let i = 0; i < count; i++) {
      if (round.length === 0) round = rng.shuffle(labels);
      states.push(generateState(rng, round.pop()!, `${namespace}-${i.toString(36)}`, options));
    }
  } finally {
    identityPools.delete(rng);
  }
  return states;
}

const generations = new WeakMap<Rng, number>();

/** `s<seed>` for an rng's first generation, `s<seed>g<n>` for later ones, so repeated calls never collide. */
function defaultNamespace(rng: Rng): string {
  const generation = generations.get(rng) ?? 0;
  generations.set(rng, generation + 1);
  return `s${rng.seed.toString(36)}${generation === 0 ? "" : `g${generation}`}`;
}

// ---------------------------------------------------------------- ledger

/** A ledger whose `getTokenLargestAccounts` can be told what to answer for chosen mints. */
export class GeneratedLedger extends Ledger {
  readonly #largest = new Map<string, readonly TokenBalance[]>();

  overrideLargestAccounts(mint: string, balances: readonly TokenBalance[]): void {
    this.#largest.set(mint, balances);
  }

  override tokenLargestAccounts(mint: string): TokenBalance[] {
    const forced = this.#largest.get(mint);
    return forced ? forced.slice() : super.tokenLargestAccounts(mint);
  }
}

/**
 * One ledger holding every state. Throws if two states (or two layers of one
 * state) write the same address, since states must not influence each other.
 */
export function buildLedger(states: readonly GeneratedState[], options: { slot?: number } = {}): GeneratedLedger {
  const ledger = new GeneratedLedger(options.slot === undefined ? {} : { slot: options.slot });
  const writtenBy = new Map<string, string>();
  for (const state of states) {
    for (const { address, account } of state.accounts) {
      const previous = writtenBy.get(address);
      if (previous !== undefined) {
        throw new Error(`address ${address} written by both ${previous} and ${state.name} (${state.label})`);
      }
      writtenBy.set(address, `${state.name} (${state.label})`);
      ledger.setAccount(address, account);
    }
    const forced = state.largestAccounts;
    if (forced) ledger.overrideLargestAccounts(forced.mint, forced.balances);
  }
  return ledger;
}
