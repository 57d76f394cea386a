import type { ChainReader } from "../chain.js";
import { NAME_PROGRAM_ID, REVERSE_LOOKUP_CLASS } from "../constants.js";
import { addressToBytes } from "../bytes.js";
import { deriveDomainKey, deriveReverseKey } from "../derive.js";
import { decodeReverseRecord } from "../layouts/reverse-record.js";
import { mapPaced } from "../paced.js";

const REVERSE_CLASS_BYTES = addressToBytes(REVERSE_LOOKUP_CLASS);

/**
 * Sub labels of a one-label parent that have a reverse record, in the
 * order the node lists the parent's children (the SDK's `findSubdomains`).
 * Both scans go out in the same round trip. The node says how many children
 * and reverses there are: each is decoded or derived in paced slices.
 */
export async function listSubdomains(chain: ChainReader, parentName: string): Promise<string[]> {
  const parent = deriveDomainKey(parentName);
  const parentBytes = addressToBytes(parent);
  const [reverses, children] = await Promise.all([
    chain.getProgramAccounts(NAME_PROGRAM_ID, {
      filters: [{ memcmp: { offset: 0, bytes: parentBytes } }, { memcmp: { offset: 64, bytes: REVERSE_CLASS_BYTES } }],
    }),
    chain.getProgramAccounts(NAME_PROGRAM_ID, {
      filters: [{ memcmp: { offset: 0, bytes: parentBytes } }],
      dataSlice: { offset: 0, length: 0 },
    }),
  ]);
  // Every reverse under the parent is decoded, used or not: one undecodable fails the answer, as in the SDK.
  const decoded = await mapPaced(
    chain,
    reverses.accounts,
    ({ address, account }) => [address, decodeReverseRecord(account.data, true)] as const,
  );
  const labels = new Map(decoded);
  const found = await mapPaced(chain, children.accounts, ({ address }) =>
    labels.get(deriveReverseKey(address, parent)),
  );
  return found.filter((label): label is string => label !== undefined && label !== "");
}
