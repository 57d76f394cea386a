import type { Address } from "@solana/kit";
import { addressToBytes } from "../bytes.js";
import type { ChainReader } from "../chain.js";
import { NAME_PROGRAM_ID, SNS_ROOT_DOMAIN } from "../constants.js";
import { readReverses } from "./reverses.js";
import type { TokenizedDomainSource } from "./tokenized-domains.js";

/** A wallet's domain as the retired hosts listed it: the key first, the reverse text when there is one. */
export interface LegacyWalletDomain {
  readonly key: Address;
  /** The reverse record's text as stored (a leading NUL kept); absent when the name has no reverse. */
  readonly domain?: string;
}

const ROOT_BYTES = addressToBytes(SNS_ROOT_DOMAIN);

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
  const [owned, held] = await Promise.all([
    chain.getProgramAccounts(NAME_PROGRAM_ID, {
      filters: [
        { memcmp: { offset: 32, bytes: addressToBytes(wallet) } },
        { memcmp: { offset: 0, bytes: ROOT_BYTES } },
      ],
      dataSlice: { offset: 0, length: 0 },
    }),
    tokenized(chain, wallet),
  ]);
  const ownedKeys = owned.accounts.map((account) => account.address);
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
