import type { Address } from "@solana/kit";
import { decodeTokenAccount } from "./accounts.js";
import { bytesToAddress } from "./bytes.js";
import type { ChainReader } from "./chain.js";
import { deriveTokenizedMint } from "./derive.js";

/**
 * Holder of a tokenized domain's NFT: the largest token account of the
 * domain's mint, when it holds exactly one token. Null when the mint does not
 * exist, has no accounts, or its largest account does not hold exactly one.
 */
export async function findNftHolder(chain: ChainReader, domainKey: Address): Promise<Address | null> {
  const largest = await chain.getTokenLargestAccounts(deriveTokenizedMint(domainKey));
  const first = largest?.[0];
  if (!first) return null;
  const [account] = await chain.getAccounts([first.address]);
  if (!account) return null;
  const token = decodeTokenAccount(account.data);
  return token.amount === 1n ? bytesToAddress(token.owner) : null;
}
