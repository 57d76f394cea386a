import type { Address } from "@solana/kit";
import type { ChainReader } from "../chain.js";
import { readReverses } from "./reverses.js";
import type { TokenizedDomainSource } from "./tokenized-domains.js";
import { readWalletNameKeys } from "./wallet-name-keys.js";

/** A wallet's domain as the retired hosts listed it: the key first, the reverse text when there is one. */
export interface LegacyWalletDomain {
  readonly key: Address;
  /** The reverse record's text as stored (a leading NUL kept); absent when the name has no reverse. */
  readonly domain?: string;
}

/**
 * The domains of a wallet in the retired hosts' shape and order: top-level names it owns in the registry, in
 * the node's scan order, each with its reverse or without one; then the tokenized names it holds, in the
 * order `tokenized` gives them, only those with a reverse.
 */
export async function listLegacyWalletDomains(
  chain: ChainReader,
  wallet: Address,
  tokenized: TokenizedDomainSource,
): Promise<LegacyWalletDomain[]> {
  const { owned: ownedKeys, held } = await readWalletNameKeys(chain, wallet, tokenized);
  const reverses = await readReverses(chain, [...ownedKeys, ...held]);
  const domains: LegacyWalletDomain[] = ownedKeys.map((key, i) => {
    const domain = reverses[i];
    return domain === undefined ? { key } : { key, domain };
  });
  held.forEach((key, i) => {
    const domain = reverses[ownedKeys.length + i];
    if (domain !== undefined) domains.push({ key, domain });
  });
  return domains;
}
