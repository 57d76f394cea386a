import type { Address } from "@solana/kit";
import { bytesToAddress } from "../bytes.js";
import type { ChainReader } from "../chain.js";
import { NAME_REGISTRY_HEADER_LEN } from "../constants.js";
import { deriveDomainKey, deriveRecordV1Key, deriveReverseKey } from "../derive.js";
import { SnsError } from "../errors.js";
import { decodeNameRegistryHeader } from "../layouts/name-registry.js";
import { decodeReverseRecord } from "../layouts/reverse-record.js";
import { recordV1Body } from "../record-v1-body.js";
import type { RecordType } from "../record-types.js";
import { deriveReverseTwitterRegistryKey, deriveTwitterRegistryKey, decodeReverseTwitterRegistry } from "../twitter.js";

// Reads only the retired hosts' API had (V1 records, parentless reverses, Twitter registries, raw domain
// data), each one account read; a missing account throws ACCOUNT_NOT_FOUND.

async function readAccount(chain: ChainReader, key: Address, what: string): Promise<Uint8Array> {
  const [account] = await chain.getAccounts([key]);
  if (!account) throw new SnsError("ACCOUNT_NOT_FOUND", `${what} ${key} does not exist`);
  return account.data;
}

/** The reverse record of a name account, with no parent (a subdomain's is elsewhere): its text as stored. */
export async function readParentlessReverse(chain: ChainReader, nameAccount: Address): Promise<string> {
  return decodeReverseRecord(await readAccount(chain, deriveReverseKey(nameAccount), "reverse record"));
}

/** A V1 record's body (record-v1-body.ts) of a TLD-less name. */
export async function readRecordV1(chain: ChainReader, name: string, type: RecordType): Promise<Uint8Array> {
  const key = deriveRecordV1Key(deriveDomainKey(name), type);
  return recordV1Body(type, await readAccount(chain, key, "V1 record"));
}

/** V1 records of a TLD-less name in request order: each one's whole body, or undefined where it is missing. */
export async function readRecordsV1(
  chain: ChainReader,
  name: string,
  types: readonly RecordType[],
): Promise<(Uint8Array | undefined)[]> {
  const domain = deriveDomainKey(name);
  const accounts = await chain.getAccounts(types.map((type) => deriveRecordV1Key(domain, type)));
  return accounts.map((account) => {
    if (!account) return undefined;
    decodeNameRegistryHeader(account.data);
    return account.data.subarray(NAME_REGISTRY_HEADER_LEN);
  });
}

/** The Twitter handle a wallet verified, from its reverse Twitter registry. */
export async function readTwitterHandle(chain: ChainReader, wallet: Address): Promise<string> {
  const data = await readAccount(chain, deriveReverseTwitterRegistryKey(wallet), "reverse twitter registry");
  return decodeReverseTwitterRegistry(data).twitterHandle;
}

/** The wallet a Twitter handle's registry names as its owner. */
export async function readTwitterOwner(chain: ChainReader, handle: string): Promise<Address> {
  const data = await readAccount(chain, deriveTwitterRegistryKey(handle), "twitter registry");
  return bytesToAddress(decodeNameRegistryHeader(data).owner);
}

/** A name account's data after its header, or null when the account does not exist. */
export async function readDomainBody(chain: ChainReader, name: string): Promise<Uint8Array | null> {
  const [account] = await chain.getAccounts([deriveDomainKey(name)]);
  return account ? account.data.subarray(NAME_REGISTRY_HEADER_LEN) : null;
}
