import type { Address } from "@solana/kit";
import { type AccountData } from "../chain.js";
import { decodeTokenAccount } from "../layouts/token-account.js";
import { bytesToAddress } from "../bytes.js";
import type { ChainReader, TokenAmountEntry } from "../chain.js";
import { deriveTokenizedMint } from "../derive.js";

/** Reads already under way for this lookup, started alongside other fetches to save round trips. */
export interface PrefetchedHolder {
  readonly largest: Promise<readonly TokenAmountEntry[] | null>;
  /** A token account fetched on a guess that it is still the largest. */
  readonly guess?: { readonly address: Address; readonly account: AccountData | null };
}

export interface NftHolderLookup {
  readonly holder: Address | null;
  /** The largest token account of the mint, when there is one. */
  readonly tokenAccount: Address | undefined;
}

/**
 * Holder of a tokenized domain's NFT: the largest token account of the
 * domain's mint, when it holds exactly one token. No holder when the mint does
 * not exist, has no accounts, or its largest account does not hold exactly one.
 */
export async function lookupNftHolder(
  chain: ChainReader,
  domainKey: Address,
  prefetched?: PrefetchedHolder,
  mint: Address = deriveTokenizedMint(domainKey),
): Promise<NftHolderLookup> {
  const largest = await (prefetched?.largest ?? chain.getTokenLargestAccounts(mint));
  const first = largest?.[0];
  if (!first) return { holder: null, tokenAccount: undefined };
  const account =
    prefetched?.guess?.address === first.address
      ? prefetched.guess.account
      : (await chain.getAccounts([first.address]))[0];
  if (!account) return { holder: null, tokenAccount: first.address };
  const token = decodeTokenAccount(account.data);
  return { holder: token.amount === 1n ? bytesToAddress(token.owner) : null, tokenAccount: first.address };
}

export async function findNftHolder(chain: ChainReader, domainKey: Address): Promise<Address | null> {
  return (await lookupNftHolder(chain, domainKey)).holder;
}
