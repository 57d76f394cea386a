import type { Address } from "@solana/kit";
import { PublicKey } from "@solana/web3.js";
import { type Identity, identity, pdaAddress } from "../../src/localnet/index.js";
import { addressToBytes, bytesEqual, bytesToAddress } from "../../src/sns/bytes.js";
import { NAME_PROGRAM_ID, NAME_TOKENIZER_ID, SYSTEM_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../../src/sns/constants.js";
import type { Rng } from "../rng.js";
import { NON_CANONICAL_ENCODINGS, SMALL_ORDER_ENCODINGS } from "./signatures.js";
import { ALLOWED_PDA_PROGRAM } from "./types.js";

// Keys a registry may name as owner and records may point at: wallets, PDAs, and encodings that only
// some ed25519 implementations accept.

const isOnCurve = (bytes: Uint8Array): boolean => PublicKey.isOnCurve(bytes);
const IDENTITY_POOL = 48;
/** Pool size of the generation an rng is running (GenerateOptions.identityPool), if not the default. */
export const identityPools = new WeakMap<Rng, number>();
export const randomIdentity = (rng: Rng): Identity =>
  identity(`chain-gen-${rng.int(0, (identityPools.get(rng) ?? IDENTITY_POOL) - 1)}`);
export const OTHER_PROGRAMS: readonly Address[] = [
  SYSTEM_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
  NAME_PROGRAM_ID,
  NAME_TOKENIZER_ID,
];

export type OwnerKind = "identity" | "zero" | "random-bytes" | "non-canonical" | "small-order" | "pda";

export interface Owner {
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

export function makeOwner(rng: Rng, kind: OwnerKind, name: string, pdaAccount?: "allowed" | "other" | "none"): Owner {
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

export function randomOwnerKind(rng: Rng): OwnerKind {
  const roll = rng.next();
  if (roll < 0.5) return "identity";
  if (roll < 0.6) return "pda";
  if (roll < 0.75) return "random-bytes";
  if (roll < 0.85) return "zero";
  if (roll < 0.93) return "small-order";
  return "non-canonical";
}

/** A key a record or NFT may point at: any 32 bytes, on or off the curve. */
export function randomTarget(rng: Rng, name: string): Uint8Array {
  const roll = rng.next();
  if (roll < 0.4) return randomIdentity(rng).publicKey;
  if (roll < 0.7) return rng.bytes(32);
  if (roll < 0.85) return addressToBytes(pdaAddress(`target:${name}:${rng.int(0, 1e9)}`));
  if (roll < 0.9) return new Uint8Array(32);
  return rng.pick([...SMALL_ORDER_ENCODINGS, ...NON_CANONICAL_ENCODINGS]);
}

export function otherThan(rng: Rng, avoid: Uint8Array): Uint8Array {
  for (;;) {
    const bytes = rng.bytes(32);
    if (!bytesEqual(bytes, avoid)) return bytes;
  }
}
