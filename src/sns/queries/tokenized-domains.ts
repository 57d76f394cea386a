import type { Address } from "@solana/kit";
import { addressToBytes, bytesToAddress } from "../bytes.js";
import type { ChainReader } from "../chain.js";
import { NAME_TOKENIZER_ID, NFT_RECORD_LEN, TOKEN_ACCOUNT_LEN, TOKEN_PROGRAM_ID } from "../constants.js";
import { SnsError } from "../errors.js";
import { NftRecordTag, decodeNftRecord } from "../layouts/nft-record.js";
import { mapPaced } from "../paced.js";

/** u64 little-endian 1: token accounts holding exactly one token (base58 `Ahg1opVcGX`). */
const AMOUNT_ONE = new Uint8Array([1, 0, 0, 0, 0, 0, 0, 0]);

export interface WalletMints {
  /** Slot the node answered at: an index must have caught up with it before it answers. */
  readonly slot: number;
  /** Distinct mints of the wallet's classic token accounts holding exactly one token. */
  readonly mints: readonly Address[];
}

/**
 * One token-account scan, mints only (32 bytes of each account);
 * `minContextSlot`: no older than this slot.
 */
export async function findWalletMints(
  chain: ChainReader,
  wallet: Address,
  commitment?: "processed" | "confirmed" | "finalized",
  minContextSlot?: number,
): Promise<WalletMints> {
  const { slot, accounts } = await chain.getProgramAccounts(TOKEN_PROGRAM_ID, {
    filters: [
      { dataSize: TOKEN_ACCOUNT_LEN },
      { memcmp: { offset: 32, bytes: addressToBytes(wallet) } },
      { memcmp: { offset: 64, bytes: AMOUNT_ONE } },
    ],
    dataSlice: { offset: 0, length: 32 },
    ...(commitment && { commitment }),
    ...(minContextSlot !== undefined && { minContextSlot }),
  });
  const listed = await mapPaced(chain, accounts, ({ account }) => {
    if (account.data.length !== 32) throw new SnsError("MALFORMED_ACCOUNT", "token account slice is not 32 bytes");
    return bytesToAddress(account.data);
  });
  return { slot, mints: [...new Set(listed)] };
}

/** Name accounts of tokenized domains for a wallet's mints; how is up to the source. */
export type TokenizedDomainSource = (chain: ChainReader, wallet: Address) => Promise<readonly Address[]>;

/**
 * The active NFT record of a mint, by scanning the tokenizer (the SDK path):
 * the name account when exactly one active record names the mint.
 */
export async function findActiveRecordOfMint(
  chain: ChainReader,
  mint: Address,
  minContextSlot?: number,
): Promise<Address | null> {
  const { accounts } = await chain.getProgramAccounts(NAME_TOKENIZER_ID, {
    filters: [
      { dataSize: NFT_RECORD_LEN },
      { memcmp: { offset: 0, bytes: new Uint8Array([NftRecordTag.ActiveRecord]) } },
      { memcmp: { offset: 66, bytes: addressToBytes(mint) } },
    ],
    ...(minContextSlot !== undefined && { minContextSlot }),
  });
  return accounts.length === 1 ? bytesToAddress(decodeNftRecord(accounts[0]!.account.data).nameAccount) : null;
}

/** At most this many tokenizer scans of one request run at once. */
export const SCAN_CONCURRENCY = 8;

/** Name accounts of the active records of `mints`: one tokenizer scan per mint, a few at a time. */
export async function scanRecordsOfMints(
  chain: ChainReader,
  mints: readonly Address[],
  minContextSlot?: number,
): Promise<Address[]> {
  const found: (Address | null)[] = new Array(mints.length).fill(null);
  let next = 0;
  const worker = async () => {
    while (next < mints.length) {
      const i = next++;
      found[i] = await findActiveRecordOfMint(chain, mints[i]!, minContextSlot);
    }
  };
  await Promise.all(Array.from({ length: Math.min(SCAN_CONCURRENCY, mints.length) }, worker));
  return found.filter((key): key is Address => key !== null);
}

/** Tokenized domains of a wallet without an index: one tokenizer scan per mint, a few at a time. */
export const scanTokenizedDomains: TokenizedDomainSource = async (chain, wallet) =>
  scanRecordsOfMints(chain, (await findWalletMints(chain, wallet)).mints);
