import type { Address } from "@solana/kit";
import { addressToBytes } from "../bytes.js";
import type { ChainReader } from "../chain.js";
import { NAME_PROGRAM_ID, SNS_ROOT_DOMAIN } from "../constants.js";
import { readReverses } from "./reverses.js";
import type { TokenizedDomainSource } from "./tokenized-domains.js";

export interface WalletDomain {
  /** Label without TLD, as its reverse record stores it. */
  readonly domain: string;
  readonly key: Address;
}

const ROOT_BYTES = addressToBytes(SNS_ROOT_DOMAIN);
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
  const keys = [...owned.accounts.map((a) => a.address).sort(byKey), ...[...held].sort(byKey)];
  const reverses = await readReverses(chain, keys);
  const domains: WalletDomain[] = [];
  keys.forEach((key, i) => {
    const domain = reverses[i];
    if (domain) domains.push({ domain, key });
  });
  return domains;
}
