import type { Address } from "@solana/kit";
import {
  type Ledger,
  associatedToken2022Address,
  buildDomainAccounts,
  identity,
  pdaAddress,
} from "../src/localnet/index.js";
import { SRS_PROGRAM_ID, SYSTEM_PROGRAM_ID, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../src/sns/constants.js";
import { deriveSrsMint, deriveSrsRecordKey } from "../src/sns/derive.js";
import { encodeSrsRecord } from "../src/sns/layouts/srs-record.js";
import {
  IMMUTABLE_OWNER,
  encodeToken2022Account,
  encodeToken2022Mint,
  mintCloseAuthority,
} from "../src/sns/layouts/token-2022.js";
import type { Rng } from "./rng.js";

/*
 * Generated SRS chain states for the SRS differential test: records that are
 * missing, foreign, short, of another discriminator, class or owner type;
 * expiries never, long past or far ahead (an hour at least, so the host's
 * clock cannot cross one during a run), and the i64 extremes; public-key
 * owners on and off the curve; token owners whose canonical (or not) mint
 * and holders take every form spl-token's readers accept or refuse. Each
 * state may also have a plain registry-owned `.sns` name of the same label,
 * owned by the SRS side's intended owner or by someone else.
 */

/** Program whose PDAs the program-list policy allows. */
export const SRS_ALLOWED_PROGRAM = identity("srs-allowed-program").address;
const OTHER_PROGRAM = identity("srs-other-program").address;

export interface SrsState {
  readonly name: string;
  /** What the generator meant (for the tally): not an expected outcome, the reference decides that. */
  readonly shape: string;
  write(ledger: Ledger, nowSeconds: number): void;
}

const HOUR = 3600;

function expiryFor(rng: Rng, now: number): { expiry: bigint; shape: string } {
  const roll = rng.next();
  if (roll < 0.45) return { expiry: 0n, shape: "never" };
  if (roll < 0.75) return { expiry: BigInt(now + rng.int(HOUR, 1_000_000_000)), shape: "ahead" };
  if (roll < 0.85) return { expiry: BigInt(now - rng.int(HOUR, 1_000_000_000)), shape: "past" };
  if (roll < 0.9) return { expiry: -1n, shape: "minus-1" };
  if (roll < 0.95)
    return rng.bool() ? { expiry: -(2n ** 63n), shape: "i64-min" } : { expiry: 2n ** 63n - 1n, shape: "i64-max" };
  return { expiry: BigInt(rng.int(1, 1_000_000)), shape: "small" };
}

/** A final owner: a wallet, or a PDA whose account a listed program, another program, or nobody owns. */
interface FinalOwner {
  readonly address: Address;
  readonly shape: string;
  write(ledger: Ledger): void;
}

function ownerFor(rng: Rng, tag: string): FinalOwner {
  const roll = rng.next();
  if (roll < 0.7) return { address: identity(`${tag}-wallet`).address, shape: "wallet", write: () => undefined };
  const pda = pdaAddress(`${tag}-pda`);
  if (roll < 0.8)
    return {
      address: pda,
      shape: "pda-allowed",
      write: (l) => void l.setAccount(pda, { owner: SRS_ALLOWED_PROGRAM, data: new Uint8Array(4) }),
    };
  if (roll < 0.9)
    return {
      address: pda,
      shape: "pda-other",
      write: (l) => void l.setAccount(pda, { owner: OTHER_PROGRAM, data: new Uint8Array(4) }),
    };
  return { address: pda, shape: "pda-missing", write: () => undefined };
}

function padded(data: Uint8Array, length: number): Uint8Array {
  const out = new Uint8Array(length);
  out.set(data.subarray(0, Math.min(length, data.length)));
  return out;
}

function withType(data: Uint8Array, type: number): Uint8Array {
  const out = data.length > 165 ? data.slice() : padded(data, 166);
  out[165] = type;
  return out;
}

/**
 * What may be wrong with a token owner, one thing at a time (or nothing),
 * so each check is reached often; some are forms spl-token accepts.
 */
const TOKEN_DEFECTS = [
  "none",
  "none",
  "none",
  "none",
  "none",
  "none",
  "mint-missing",
  "mint-classic",
  "mint-short",
  "mint-between",
  "mint-multisig-length",
  "mint-account-type",
  "mint-unknown-type",
  "mint-uninitialized",
  "mint-flag-2",
  "mint-decimals-1",
  "mint-supply-0",
  "mint-supply-2",
  "mint-base-form",
  "mint-no-extensions",
  "holders-0",
  "holders-2-of-1",
  "holders-2-one-of-1",
  "holder-amount-0",
  "holder-amount-2",
  "holder-uninitialized",
  "holder-frozen",
  "holder-state-3",
  "holder-classic",
  "holder-short",
  "holder-multisig-length",
  "holder-mint-type",
  "holder-base-form",
] as const;
type TokenDefect = (typeof TOKEN_DEFECTS)[number];
export const SRS_TOKEN_DEFECTS: readonly string[] = [...new Set(TOKEN_DEFECTS)];

function mintData(defect: TokenDefect): Uint8Array {
  const fields = {
    supply: defect === "mint-supply-0" ? 0n : defect === "mint-supply-2" ? 2n : 1n,
    decimals: defect === "mint-decimals-1" ? 1 : 0,
    initialized: defect !== "mint-uninitialized",
    mintAuthority: SRS_PROGRAM_ID,
  };
  const extended = encodeToken2022Mint(fields, [mintCloseAuthority(SRS_PROGRAM_ID)]);
  switch (defect) {
    case "mint-short":
      return extended.subarray(0, 81);
    case "mint-between":
      return padded(extended, 120);
    case "mint-multisig-length":
      return withType(padded(extended, 355), 1);
    case "mint-account-type":
      return withType(extended, 2);
    case "mint-unknown-type":
      return withType(extended, 7);
    case "mint-flag-2": {
      const data = extended.slice();
      data[45] = 2; // spl-token reads any non-zero flag as initialized
      return data;
    }
    case "mint-base-form":
      return encodeToken2022Mint(fields);
    case "mint-no-extensions":
      return encodeToken2022Mint(fields, []);
    default:
      return extended;
  }
}

function holderData(defect: TokenDefect, mint: Address, owner: Address, amount: bigint): Uint8Array {
  const state =
    defect === "holder-uninitialized" ? 0 : defect === "holder-frozen" ? 2 : defect === "holder-state-3" ? 3 : 1;
  const extended = encodeToken2022Account({ mint, owner, amount, state }, [IMMUTABLE_OWNER]);
  switch (defect) {
    case "holder-short":
      return extended.subarray(0, 164);
    case "holder-multisig-length":
      return padded(extended, 355);
    case "holder-mint-type":
      return withType(extended, 1);
    case "holder-base-form":
      return encodeToken2022Account({ mint, owner, amount, state });
    default:
      return extended;
  }
}

function tokenOwnedWrite(
  rng: Rng,
  name: string,
  tag: string,
): { shape: string; intended: FinalOwner | undefined; write(ledger: Ledger): void } {
  const record = deriveSrsRecordKey(name);
  const mint = deriveSrsMint(record);
  const defect = rng.pick(TOKEN_DEFECTS);
  const holderCount = defect === "holders-0" ? 0 : defect.startsWith("holders-2") ? 2 : 1;
  const owners = Array.from({ length: holderCount }, (_, i) => ownerFor(rng, `${tag}-h${i}`));
  const amounts = owners.map((_, i) =>
    defect === "holder-amount-0"
      ? 0n
      : defect === "holder-amount-2"
        ? 2n
        : defect === "holders-2-one-of-1" && i === 1
          ? 0n
          : 1n,
  );
  return {
    shape: `token/${defect}/${owners.map((o) => o.shape).join(",")}`,
    intended: owners[0],
    write(ledger) {
      if (defect !== "mint-missing") {
        ledger.setAccount(mint, {
          owner: defect === "mint-classic" ? TOKEN_PROGRAM_ID : TOKEN_2022_PROGRAM_ID,
          data: mintData(defect),
        });
      }
      owners.forEach((owner, i) => {
        owner.write(ledger);
        const program = defect === "holder-classic" ? TOKEN_PROGRAM_ID : TOKEN_2022_PROGRAM_ID;
        ledger.setAccount(associatedToken2022Address(owner.address, mint), {
          owner: program,
          data: holderData(defect, mint, owner.address, amounts[i]!),
        });
      });
    },
  };
}

/** `count` SRS states, names unique within `prefix`. */
export function generateSrsStates(rng: Rng, count: number, prefix: string): SrsState[] {
  return Array.from({ length: count }, (_, index) => {
    const tag = `${prefix}-${index}`;
    // A few flat two-label names: one SRS name, and no name-service domain (its parent is absent).
    const name = rng.bool(0.1) ? `sub.${tag}` : tag;
    const recordRoll = rng.next();
    // "ahead" and "past" are placed relative to the host's clock when written.
    const { expiry, shape: expiryShape } = expiryFor(rng, 0);
    const tokenOwned = rng.bool(0.45);
    const canonical = rng.bool(0.92);
    const frozen = rng.bool(0.2);
    const trailing = rng.pick([0, 0, 0, 1, 25]);
    const owner = tokenOwned ? undefined : ownerFor(rng, tag);
    const token = tokenOwned ? tokenOwnedWrite(rng, name, tag) : undefined;
    const snsRoll = rng.next();
    // The name-service side is a plain domain with an on-curve owner: the SRS side's wallet, or another one.
    const intended = owner ?? token!.intended;
    const same = intended?.shape === "wallet" ? intended.address : undefined;
    const snsOwner = snsRoll < 0.35 ? undefined : snsRoll < 0.75 && same ? same : identity(`${tag}-other`).address;
    let recordShape = "valid";
    if (recordRoll < 0.04) recordShape = "missing";
    else if (recordRoll < 0.08) recordShape = "foreign";
    else if (recordRoll < 0.12) recordShape = "short";
    else if (recordRoll < 0.16) recordShape = "discriminator";
    else if (recordRoll < 0.2) recordShape = "class";
    else if (recordRoll < 0.24) recordShape = "owner-type";
    const shortLength = rng.int(0, 74);
    const discriminator = rng.pick([0, 1, 3, 255]);
    const ownerType = rng.int(2, 255);
    const offset = rng.int(HOUR, 1_000_000_000);
    return {
      name,
      shape: `${recordShape}/${expiryShape}/${tokenOwned ? (canonical ? "canonical" : "noncanonical") : "key"}/${owner?.shape ?? token!.shape}/sns-${snsOwner === undefined ? "none" : snsOwner === same ? "same" : "other"}`,
      write(ledger, nowSeconds) {
        const at =
          expiryShape === "ahead"
            ? BigInt(nowSeconds + offset)
            : expiryShape === "past"
              ? BigInt(nowSeconds - offset)
              : expiry;
        const record = deriveSrsRecordKey(name);
        const mint = deriveSrsMint(record);
        if (recordShape !== "missing") {
          let data = encodeSrsRecord({
            owner: tokenOwned ? (canonical ? mint : identity(`${tag}-stray-mint`).address) : owner!.address,
            ownerType: recordShape === "owner-type" ? ownerType : tokenOwned ? 1 : 0,
            expiry: at,
            frozen,
            trailing,
            ...(recordShape === "discriminator" && { discriminator }),
            ...(recordShape === "class" && { recordClass: SYSTEM_PROGRAM_ID }),
          });
          if (recordShape === "short") data = data.subarray(0, shortLength);
          ledger.setAccount(record, { owner: recordShape === "foreign" ? OTHER_PROGRAM : SRS_PROGRAM_ID, data });
        }
        owner?.write(ledger);
        token?.write(ledger);
        if (snsOwner !== undefined && !name.includes(".")) {
          for (const { address, account } of buildDomainAccounts({ name, owner: snsOwner, reverse: false }))
            ledger.setAccount(address, account);
        }
      },
    };
  });
}
