import type { Address } from "@solana/kit";
import { domainAccounts } from "../src/localnet/fixture/domains.js";
import { Ledger } from "../src/localnet/ledger.js";
import { bytesToAddress } from "../src/sns/bytes.js";
import {
  NAME_PROGRAM_ID,
  NAME_TOKENIZER_ID,
  REGISTER_PROGRAM_ID,
  SNS_ROOT_DOMAIN,
  SYSTEM_PROGRAM_ID,
} from "../src/sns/constants.js";
import { planSubdomain } from "../src/sns/instructions/create-subdomain.js";
import { PAYMENT_MINTS } from "../src/sns/instructions/payment-mints.js";
import { REFERRERS } from "../src/sns/instructions/referrers.js";
import type { Rng } from "./rng.js";

/*
 * Generated inputs of `/register` and `/create-subdomain`: labels of every
 * script (ASCII, accented, CJK, emoji, inner spaces), spaces 0–10,000, every
 * payment mint and an unsupported one, every referrer and none, and parents
 * plain or tokenized, owned by the caller or not, with the subdomain's
 * reverse account present (with or without data) or absent.
 */

const PIECES = [
  "a",
  "b",
  "z",
  "0",
  "9",
  "-",
  "_",
  "x1",
  "dex",
  "bonfida",
  "sns",
  " ",
  "é",
  "ß",
  "ǆ",
  "ﬁ",
  "名前",
  "ドメイン",
  "😀",
  "🚀",
  "👩‍💻",
  "🇫🇷",
  "Ω",
  "ж",
  "\u0301",
  "İ",
  "K",
];

/** A label of 1–6 pieces with no `.`; some pieces change under `toLowerCase`, which the route applies first. */
export function generateLabel(rng: Rng): string {
  const count = rng.int(1, 6);
  let label = "";
  for (let i = 0; i < count; i++) label += rng.pick(PIECES);
  label = label.trim().toLowerCase();
  return label.length === 0 || label.includes(".") ? "n" + rng.int(0, 1e6) : label;
}

/** How the raw query value is spelled: surrounding spaces and upper case, which the route normalizes away. */
export function spellLabel(rng: Rng, label: string): string {
  const cased = rng.bool(0.3) ? label.toUpperCase() : label;
  // Upper-casing is not always undone by lower-casing (`ß` → `SS`): keep the label then.
  const spelled = cased.toLowerCase() === label ? cased : label;
  return rng.bool(0.2) ? `  ${spelled} ` : spelled;
}

const randomKey = (rng: Rng): Address => bytesToAddress(rng.bytes(32));

/** Keys a caller could name that are also programs or accounts of the instructions. */
const NOTABLE_KEYS: readonly Address[] = [
  SYSTEM_PROGRAM_ID,
  NAME_PROGRAM_ID,
  REGISTER_PROGRAM_ID,
  SNS_ROOT_DOMAIN,
  NAME_TOKENIZER_ID,
];

function generateWallet(rng: Rng): Address {
  if (rng.bool(0.04)) return rng.pick(NOTABLE_KEYS);
  if (rng.bool(0.04)) return rng.pick(REFERRERS);
  return randomKey(rng);
}

export interface RegisterCase {
  readonly buyer: Address;
  /** Canonical label (what the route builds with). */
  readonly label: string;
  /** The `domain` query value as sent. */
  readonly domain: string;
  readonly space: number;
  /** Absent: the route's default (USDC). */
  readonly mint?: Address;
  readonly referrer?: Address;
}

const UNSUPPORTED_MINT = "DeJBGdMFa1uynnnKiwrVioatTuHmNLpyFKnmB5kaFdzQ" as Address;

export function generateRegisterCases(rng: Rng, count: number): RegisterCase[] {
  return Array.from({ length: count }, (_, i): RegisterCase => {
    const label = generateLabel(rng);
    // Every mint and every referrer in turn, then at random.
    const mintChoice =
      i < PAYMENT_MINTS.length
        ? PAYMENT_MINTS[i]!.mint
        : rng.bool(0.15)
          ? undefined
          : rng.bool(0.05)
            ? UNSUPPORTED_MINT
            : rng.pick(PAYMENT_MINTS).mint;
    const referrer =
      i < REFERRERS.length
        ? REFERRERS[i]!
        : rng.bool(0.35)
          ? undefined
          : rng.bool(0.2)
            ? randomKey(rng)
            : rng.pick(REFERRERS);
    const space = rng.bool(0.1) ? rng.pick([0, 1, 9_999, 10_000]) : rng.int(0, 10_000);
    return {
      buyer: generateWallet(rng),
      label,
      domain: spellLabel(rng, label),
      space,
      ...(mintChoice === undefined ? {} : { mint: mintChoice }),
      ...(referrer === undefined ? {} : { referrer }),
    };
  });
}

export type ParentKind = "plain" | "tokenized" | "missing";
export type ReverseKind = "absent" | "present" | "empty";

export interface SubdomainCase {
  readonly owner: Address;
  /** Canonical `sub.parent`. */
  readonly name: string;
  /** The `subdomain` query value as sent. */
  readonly subdomain: string;
  readonly parent: ParentKind;
  /** Whether `owner` is the parent's registry owner (never for a tokenized parent: the tokenizer's record is). */
  readonly ownsParent: boolean;
  readonly reverse: ReverseKind;
}

export function generateSubdomainCases(rng: Rng, count: number): SubdomainCase[] {
  return Array.from({ length: count }, (_, i): SubdomainCase => {
    // Unique parents, never `sol` (the official SDK 3.0.26 strips a `.sol` suffix).
    const parentLabel = `p${i}${rng.bool(0.5) ? generateLabel(rng) : ""}`;
    const name = `${generateLabel(rng)}.${parentLabel}`;
    const parent: ParentKind = rng.bool(0.06) ? "missing" : rng.bool(0.3) ? "tokenized" : "plain";
    return {
      owner: generateWallet(rng),
      name,
      subdomain: spellLabel(rng, name),
      parent,
      ownsParent: parent === "plain" && rng.bool(0.6),
      reverse: rng.pick(["absent", "absent", "present", "empty"] as const),
    };
  });
}

/** One ledger holding every case's parent and reverse account as the case says. */
export function buildSubdomainLedger(cases: readonly SubdomainCase[], rng: Rng): Ledger {
  const ledger = new Ledger();
  for (const c of cases) {
    const parentName = c.name.split(".")[1]!;
    if (c.parent !== "missing") {
      const owner = c.parent === "tokenized" ? { nftRecord: parentName } : c.ownsParent ? c.owner : randomKey(rng);
      const accounts = domainAccounts({
        name: parentName,
        owner,
        space: rng.int(0, 64),
        ...(c.parent === "tokenized"
          ? { tokenized: { holder: c.ownsParent ? c.owner : randomKey(rng), state: "active" as const } }
          : {}),
      });
      for (const { address, account } of accounts) ledger.setAccount(address, account);
    }
    if (c.reverse !== "absent") {
      const { reverse } = planSubdomain(c.name, 0);
      const data = c.reverse === "empty" ? new Uint8Array(0) : rng.bytes(96 + rng.int(0, 16));
      ledger.setAccount(reverse, { owner: NAME_PROGRAM_ID, data });
    }
  }
  return ledger;
}
