import type { Address } from "@solana/kit";
import { bytesToAddress } from "../bytes.js";
import type { ChainReader } from "../chain.js";
import { derivePrimaryDomainKey, deriveReverseKey, deriveTokenizedMint } from "../derive.js";
import { SnsError } from "../errors.js";
import { decodeNameRegistryHeader, isRootParent } from "../layouts/name-registry.js";
import { decodePrimaryDomain } from "../layouts/primary-domain.js";
import { decodeReverseRecord } from "../layouts/reverse-record.js";
import { lookupNftHolder } from "./nft-holder.js";

export interface PrimaryDomain {
  /** The chosen (sub)domain's name account. */
  readonly domain: Address;
  /** `label`, or `sub.parent` for a subdomain; no TLD. */
  readonly reverse: string;
  /** The wallet no longer holds the name: neither its NFT holder nor (untokenized) its registry owner. */
  readonly stale: boolean;
}

const noop = () => {};

/**
 * A wallet's primary domain, or null when it never set one. Three round
 * trips at most where the official SDK takes five to eight: the name
 * account, its mint's largest holders and its top-level reverse together;
 * then the holder's token account and, for a subdomain, both reverses.
 * Failures surface in the SDK's order: missing name account, holder lookup,
 * missing reverse, missing parent reverse.
 */
export async function findPrimaryDomain(chain: ChainReader, wallet: Address): Promise<PrimaryDomain | null> {
  const [primary] = await chain.getAccounts([derivePrimaryDomainKey(wallet)]);
  if (!primary) return null;
  const { nameAccount } = decodePrimaryDomain(primary.data);

  const mint = deriveTokenizedMint(nameAccount);
  // The SDK looks for an NFT holder whatever the NFT record says.
  const largest = chain.getTokenLargestAccounts(mint);
  largest.catch(noop); // awaited below, after the name account, as the SDK orders failures
  const [account, topLevelReverse] = await chain.getAccounts([nameAccount, deriveReverseKey(nameAccount)]);
  if (!account) throw new SnsError("ACCOUNT_NOT_FOUND", `primary name account ${nameAccount} does not exist`);
  const header = decodeNameRegistryHeader(account.data);
  const isSubdomain = !isRootParent(header.parentName);
  const parent = bytesToAddress(header.parentName);
  const subReverses = isSubdomain
    ? chain.getAccounts([deriveReverseKey(nameAccount, parent), deriveReverseKey(parent)])
    : Promise.resolve([topLevelReverse ?? null, null]);
  subReverses.catch(noop);

  const { holder } = await lookupNftHolder(chain, nameAccount, { largest }, mint);
  const [reverseAccount, parentReverseAccount] = await subReverses;
  if (!reverseAccount) throw new SnsError("ACCOUNT_NOT_FOUND", `reverse record of ${nameAccount} does not exist`);
  let reverse = decodeReverseRecord(reverseAccount.data, isSubdomain);
  if (isSubdomain) {
    if (!parentReverseAccount) throw new SnsError("ACCOUNT_NOT_FOUND", `reverse record of ${parent} does not exist`);
    reverse += `.${decodeReverseRecord(parentReverseAccount.data)}`;
  }
  const owner = holder ?? bytesToAddress(header.owner);
  return { domain: nameAccount, reverse, stale: owner !== wallet };
}
