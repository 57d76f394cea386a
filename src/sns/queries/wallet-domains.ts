import type { Address } from "@solana/kit";
import type { ChainReader } from "../chain.js";
import { readReverses } from "./reverses.js";
import type { TokenizedDomainSource } from "./tokenized-domains.js";
import { readWalletNameKeys } from "./wallet-name-keys.js";

export interface WalletDomain {
  /** Label without TLD, as its reverse record stores it. */
  readonly domain: string;
  readonly key: Address;
}

const byKey = (a: Address, b: Address) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Domains a wallet holds (`/domains`): top-level domains it owns in the
 * registry, then tokenized domains whose NFT it holds; each group sorted by
 * name account so one chain state always gives one order. Names without a
 * reverse are left out, as upstream does. Both scans run in parallel and all
 * reverses are read in one go.
 */
export async function listWalletDomains(
  chain: ChainReader,
  wallet: Address,
  tokenized: TokenizedDomainSource,
): Promise<WalletDomain[]> {
  const { owned, held } = await readWalletNameKeys(chain, wallet, tokenized);
  const keys = [...[...owned].sort(byKey), ...[...held].sort(byKey)];
  const reverses = await readReverses(chain, keys);
  const domains: WalletDomain[] = [];
  keys.forEach((key, i) => {
    const domain = reverses[i];
    if (domain) domains.push({ domain, key });
  });
  return domains;
}
