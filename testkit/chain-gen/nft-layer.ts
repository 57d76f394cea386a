import type { Address } from "@solana/kit";
import {
  TOKENIZER_CENTRAL_STATE,
  associatedTokenAddress,
  encodeMint,
  encodeNftRecord,
  encodeTokenAccount,
  pdaAddress,
} from "../../src/localnet/index.js";
import { addressToBytes, bytesToAddress } from "../../src/sns/bytes.js";
import {
  NAME_PROGRAM_ID,
  NAME_TOKENIZER_ID,
  SYSTEM_PROGRAM_ID,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
} from "../../src/sns/constants.js";
import { type Build, type Effect, FALL, GENERIC, concat, put, undecodable } from "./layer.js";
import { OTHER_PROGRAMS, otherThan, randomTarget } from "./owners.js";

// The NFT record and tokenization layer: an active record hands the name to its NFT's holder, found
// through the mint's largest token account.

export const NFT_KINDS = [
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
export type NftKind = (typeof NFT_KINDS)[number] | "none";
export const NFT_FALL_KINDS: readonly NftKind[] = ["none", "none", "inactive", "wrong-tag"];

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

export function nftLayer(b: Build, kind: NftKind): Effect {
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
      if (variant === 1)
        put(
          b,
          b.keys.mint,
          TOKEN_PROGRAM_ID,
          mint.map((byte, i) => (i === 45 ? 0 : byte)),
        );
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
