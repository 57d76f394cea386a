import type { Address } from "@solana/kit";
import { bytesToAddress } from "../bytes.js";
import type { ChainReader } from "../chain.js";
import { deriveReverseKey } from "../derive.js";
import { SnsError } from "../errors.js";
import { decodeNameRegistryHeader, isRootParent } from "../layouts/name-registry.js";
import { decodeReverseRecord } from "../layouts/reverse-record.js";

/**
 * The reverse string of a name account (`/reverse-lookup`): the label of a
 * top-level domain; for a subdomain only its own label, as upstream answers.
 * Most names are top-level, so their parentless reverse is read together
 * with the name account: one round trip, two for a subdomain.
 */
export async function lookupReverse(chain: ChainReader, nameAccount: Address): Promise<string> {
  const [account, topLevelReverse] = await chain.getAccounts([nameAccount, deriveReverseKey(nameAccount)]);
  if (!account) throw new SnsError("ACCOUNT_NOT_FOUND", `name account ${nameAccount} does not exist`);
  const { parentName } = decodeNameRegistryHeader(account.data);
  const isSubdomain = !isRootParent(parentName);
  const [reverse] = isSubdomain
    ? await chain.getAccounts([deriveReverseKey(nameAccount, bytesToAddress(parentName))])
    : [topLevelReverse];
  if (!reverse) throw new SnsError("ACCOUNT_NOT_FOUND", `reverse record of ${nameAccount} does not exist`);
  return decodeReverseRecord(reverse.data, isSubdomain);
}
