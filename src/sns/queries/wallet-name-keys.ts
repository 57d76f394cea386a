import type { Address } from "@solana/kit";
import { addressToBytes } from "../bytes.js";
import type { ChainReader } from "../chain.js";
import { NAME_PROGRAM_ID, SNS_ROOT_DOMAIN } from "../constants.js";
import type { TokenizedDomainSource } from "./tokenized-domains.js";

/** The name accounts of a wallet's names, in the order their sources gave them. */
export interface WalletNameKeys {
  /** Top-level names the wallet owns in the registry, in the node's scan order. */
  readonly owned: readonly Address[];
  /** Tokenized names whose NFT the wallet holds, in the order `tokenized` gives them. */
  readonly held: readonly Address[];
}

const ROOT_BYTES = addressToBytes(SNS_ROOT_DOMAIN);

/**
 * Both scans behind a wallet's domain list, run in parallel: the registry
 * (name accounts under the root whose owner is the wallet, keys only) and
 * the tokenized names it holds. The v1 and retired-host lists order and
 * filter them differently (wallet-domains.ts, legacy-wallet-domains.ts).
 */
export async function readWalletNameKeys(
  chain: ChainReader,
  wallet: Address,
  tokenized: TokenizedDomainSource,
): Promise<WalletNameKeys> {
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
  return { owned: owned.accounts.map((account) => account.address), held };
}
