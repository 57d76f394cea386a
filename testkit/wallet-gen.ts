import type { Address } from "@solana/kit";
import {
  type DomainSpec,
  type FixtureAccount,
  Ledger,
  buildDomainAccounts,
  encodePrimaryDomain,
  encodeTokenAccount,
  identity,
  pdaAddress,
} from "../src/localnet/index.js";
import { bytesToAddress } from "../src/sns/bytes.js";
import { NAME_OFFERS_ID, TOKEN_PROGRAM_ID } from "../src/sns/constants.js";
import { deriveAssociatedTokenAccount, deriveDomainKey, derivePrimaryDomainKey } from "../src/sns/derive.js";
import type { Rng } from "./rng.js";

/*
 * Generated wallet chain states for the wallet and reverse routes'
 * differential test: one wallet per state with 0–30 names of mixed kinds,
 * subdomains, tokenized names (held, held by someone else, unwrapped), names
 * without reverses, off-curve wallets, and a primary account of every kind.
 * Every name is unique to its state (seed tag + state index), so any number
 * of states share one ledger without seeing each other.
 */

export const WALLET_LABELS = [
  "no-domains",
  "many-domains",
  "registry-owned",
  "missing-reverse",
  "tokenized-held",
  "tokenized-no-reverse",
  "nft-held-elsewhere",
  "unwrapped",
  "unwrapped-token-kept",
  "subdomain",
  "subdomain-no-reverse",
  "off-curve-owner",
  "other-token",
  "primary-none",
  "primary-fresh",
  "primary-stale",
  "primary-tokenized",
  "primary-nft-elsewhere",
  "primary-subdomain",
  "primary-missing-name",
  "primary-missing-reverse",
  "primary-broken",
] as const;
export type WalletLabel = (typeof WALLET_LABELS)[number];

const PRIMARY_KINDS = WALLET_LABELS.filter((label) => label.startsWith("primary-"));

type DomainKind =
  | "registry-owned"
  | "missing-reverse"
  | "tokenized-held"
  | "tokenized-no-reverse"
  | "nft-held-elsewhere"
  | "unwrapped"
  | "unwrapped-token-kept";
const DOMAIN_KINDS: readonly DomainKind[] = [
  "registry-owned",
  "registry-owned",
  "registry-owned",
  "missing-reverse",
  "tokenized-held",
  "tokenized-held",
  "tokenized-no-reverse",
  "nft-held-elsewhere",
  "unwrapped",
  "unwrapped-token-kept",
];

export interface WalletState {
  readonly index: number;
  readonly wallet: Address;
  readonly labels: ReadonlySet<WalletLabel>;
  /** TLD-less names whose name accounts `/reverse-lookup` is asked about (some do not exist). */
  readonly lookups: readonly string[];
  /** One-label parents `/subdomains` is asked about. */
  readonly parents: readonly string[];
  /** The primary account cannot be decoded: upstream fails, the gateway answers 422 (and null in a batch). */
  readonly brokenPrimary: boolean;
  readonly accounts: readonly FixtureAccount[];
}

/** 0–30 names, most wallets holding a few and some many. */
function domainCount(rng: Rng): number {
  const roll = rng.next();
  if (roll < 0.1) return 0;
  if (roll < 0.75) return rng.int(1, 4);
  if (roll < 0.94) return rng.int(5, 12);
  return rng.int(13, 30);
}

function generateState(rng: Rng, tag: string, index: number): WalletState {
  const labels = new Set<WalletLabel>();
  const offCurve = rng.bool(0.15);
  if (offCurve) labels.add("off-curve-owner");
  const wallet = offCurve ? pdaAddress(`wallet-gen:${tag}:${index}`) : identity(`wallet-gen:${tag}:${index}`).address;
  const someoneElse = () => bytesToAddress(rng.bytes(32));
  const name = (suffix: string) => `w${tag}-${index}-${suffix}`;
  const accounts: FixtureAccount[] = [];
  const add = (spec: DomainSpec) => accounts.push(...buildDomainAccounts(spec));
  const lookups: string[] = [];
  const parents: string[] = [];
  const owned: string[] = []; // registry-owned names with a reverse: candidates for subdomains and the primary

  const count = domainCount(rng);
  if (count === 0) labels.add("no-domains");
  if (count >= 10) labels.add("many-domains");
  for (let j = 0; j < count; j++) {
    const kind = rng.pick(DOMAIN_KINDS);
    const label = name(String(j));
    labels.add(kind);
    switch (kind) {
      case "registry-owned":
        add({ name: label, owner: wallet });
        owned.push(label);
        break;
      case "missing-reverse":
        add({ name: label, owner: wallet, reverse: false });
        break;
      case "tokenized-held":
      case "tokenized-no-reverse":
        add({
          name: label,
          owner: { nftRecord: label },
          reverse: kind === "tokenized-held",
          tokenized: { holder: wallet },
        });
        break;
      case "nft-held-elsewhere":
        // The wallet tokenized it once; the NFT has moved on.
        add({ name: label, owner: { nftRecord: label }, tokenized: { holder: someoneElse(), recordOwner: wallet } });
        break;
      case "unwrapped":
        add({ name: label, owner: wallet, tokenized: { holder: null, state: "inactive" } });
        owned.push(label);
        break;
      case "unwrapped-token-kept":
        // The record is inactive although the wallet still holds one token of its mint.
        add({ name: label, owner: wallet, tokenized: { holder: wallet, state: "inactive" } });
        owned.push(label);
        break;
    }
    if (rng.bool(0.2)) lookups.push(label);
  }

  // Subdomains of some registry-owned names, with and without reverses, some owned by others.
  for (const parent of owned) {
    if (!rng.bool(0.25)) continue;
    const subs = rng.int(1, 3);
    for (let k = 0; k < subs; k++) {
      const withReverse = rng.bool(0.7);
      labels.add(withReverse ? "subdomain" : "subdomain-no-reverse");
      const sub = `s${k}.${parent}`;
      add({ name: sub, owner: rng.bool(0.8) ? wallet : someoneElse(), reverse: withReverse });
      if (rng.bool(0.5)) lookups.push(sub);
    }
    parents.push(parent);
  }
  if (rng.bool(0.2)) parents.push(name("childless"));
  if (rng.bool(0.2)) lookups.push(name("never-registered"));

  // Token accounts that name no tokenized domain: another mint, and an NFT-like amount of 2.
  if (rng.bool(0.2)) {
    labels.add("other-token");
    const mint = someoneElse();
    const amount = rng.pick([1n, 2n, 0n]);
    accounts.push({
      address: deriveAssociatedTokenAccount(wallet, mint),
      account: { owner: TOKEN_PROGRAM_ID, data: encodeTokenAccount({ mint, owner: wallet, amount }) },
    });
  }

  const primary = rng.pick(PRIMARY_KINDS);
  labels.add(primary);
  let brokenPrimary = false;
  const setPrimary = (target: Address) =>
    accounts.push({
      address: derivePrimaryDomainKey(wallet),
      account: { owner: NAME_OFFERS_ID, data: encodePrimaryDomain(target) },
    });
  switch (primary) {
    case "primary-none":
      break;
    case "primary-fresh": {
      const target = owned.length > 0 ? rng.pick(owned) : name("primary");
      if (owned.length === 0) add({ name: target, owner: wallet });
      setPrimary(deriveDomainKey(target));
      break;
    }
    case "primary-stale":
      add({ name: name("sold"), owner: someoneElse() });
      setPrimary(deriveDomainKey(name("sold")));
      break;
    case "primary-tokenized":
      add({ name: name("nft"), owner: { nftRecord: name("nft") }, tokenized: { holder: wallet } });
      setPrimary(deriveDomainKey(name("nft")));
      break;
    case "primary-nft-elsewhere":
      add({ name: name("nft-gone"), owner: { nftRecord: name("nft-gone") }, tokenized: { holder: someoneElse() } });
      setPrimary(deriveDomainKey(name("nft-gone")));
      break;
    case "primary-subdomain": {
      const parent = name("home");
      add({ name: parent, owner: rng.bool(0.7) ? wallet : someoneElse(), reverse: rng.bool(0.8) });
      add({ name: `me.${parent}`, owner: rng.bool(0.8) ? wallet : someoneElse() });
      setPrimary(deriveDomainKey(`me.${parent}`));
      lookups.push(`me.${parent}`);
      break;
    }
    case "primary-missing-name":
      setPrimary(deriveDomainKey(name("vanished")));
      break;
    case "primary-missing-reverse":
      add({ name: name("quiet"), owner: wallet, reverse: false });
      setPrimary(deriveDomainKey(name("quiet")));
      break;
    case "primary-broken":
      brokenPrimary = true;
      accounts.push({
        address: derivePrimaryDomainKey(wallet),
        account: { owner: NAME_OFFERS_ID, data: rng.bytes(rng.int(0, 32)) },
      });
      break;
  }
  return { index, wallet, labels, lookups, parents, brokenPrimary, accounts };
}

/** `count` states; `tag` keeps names of different seeds apart in one ledger. */
export function generateWalletStates(rng: Rng, count: number): WalletState[] {
  const tag = rng.seed.toString(36);
  return Array.from({ length: count }, (_, index) => generateState(rng, tag, index));
}

export function buildWalletLedger(states: readonly WalletState[]): Ledger {
  const ledger = new Ledger();
  for (const state of states) for (const { address, account } of state.accounts) ledger.setAccount(address, account);
  return ledger;
}
