import type { Address } from "@solana/kit";
import type { ChainReader } from "../chain.js";
import { deriveReverseKey } from "../derive.js";
import { decodeReverseRecord } from "../layouts/reverse-record.js";
import { mapPaced } from "../paced.js";

/**
 * Parentless reverses of many name accounts in one read (the SDK's
 * `reverseLookupBatch`): undefined where a reverse is missing, the stored
 * string as is (a subdomain's leading NUL is kept) otherwise.
 */
export async function readReverses(
  chain: ChainReader,
  nameAccounts: readonly Address[],
): Promise<(string | undefined)[]> {
  const accounts = await chain.getAccounts(await mapPaced(chain, nameAccounts, (key) => deriveReverseKey(key)));
  return accounts.map((account) => (account ? decodeReverseRecord(account.data) : undefined));
}
