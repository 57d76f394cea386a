import type { Address } from "@solana/kit";
import { type AccountData } from "../chain.js";
import { decodeNameRegistryHeader } from "../layouts/name-registry.js";
import { addressToBytes } from "../bytes.js";
import type { ChainReader } from "../chain.js";
import { deriveDomainKey, deriveNftRecordKey, deriveRecordV2Key } from "../derive.js";
import { SnsError } from "../errors.js";
import { findNftHolder } from "./nft-holder.js";
import { type RecordBatchItem, type RecordResponse, recordBatchItem, recordResponse } from "../record-response.js";
import type { RecordType } from "../record-types.js";

interface FetchedRecords {
  readonly domainKey: Address;
  readonly domain: AccountData | null;
  readonly nftRecord: AccountData | null;
  /** Aligned with the requested types; duplicates share one fetched account. */
  readonly records: (AccountData | null)[];
}

/**
 * One account read for everything a record answer can need: the domain, its
 * NFT record (whose existence decides whether a holder lookup is worth an
 * RPC call) and every requested record. Duplicate types are fetched once.
 */
async function fetchRecords(chain: ChainReader, name: string, types: readonly RecordType[]): Promise<FetchedRecords> {
  const domainKey = deriveDomainKey(name);
  const recordKeys = types.map((type) => deriveRecordV2Key(domainKey, type));
  const uniqueRecordKeys = [...new Set(recordKeys)];
  const [domain = null, nftRecord = null, ...fetched] = await chain.getAccounts([
    domainKey,
    deriveNftRecordKey(domainKey),
    ...uniqueRecordKeys,
  ]);
  const byKey = new Map(uniqueRecordKeys.map((key, i) => [key, fetched[i] ?? null]));
  return { domainKey, domain, nftRecord, records: recordKeys.map((key) => byKey.get(key) ?? null) };
}

/**
 * Whoever controls the domain now, the key a record's staleness id must
 * name: the NFT holder when the domain is tokenized, else the registry owner.
 * As upstream, the NFT record's tag is not consulted (an inactive record with
 * a live holder still counts). Without an NFT record there is no mint on a
 * real chain, so the holder lookup is skipped rather than paid for.
 */
async function currentOwner(
  chain: ChainReader,
  fetched: FetchedRecords,
  registryOwner: Uint8Array,
): Promise<Uint8Array> {
  if (!fetched.nftRecord) return registryOwner;
  const holder = await findNftHolder(chain, fetched.domainKey);
  return holder ? addressToBytes(holder) : registryOwner;
}

/**
 * One V2 record of a TLD-less name, verified and decoded. A missing
 * domain and a missing record are the same answer to the caller, "no such
 * record": both throw RECORD_NOT_FOUND. Content that cannot be decoded throws
 * INVALID_RECORD_DATA (except `background`, which is returned undecoded).
 */
export async function readRecordV2(chain: ChainReader, name: string, type: RecordType): Promise<RecordResponse> {
  const fetched = await fetchRecords(chain, name, [type]);
  const [account] = fetched.records;
  if (!fetched.domain) throw new SnsError("RECORD_NOT_FOUND", `domain ${name} does not exist`);
  if (!account) throw new SnsError("RECORD_NOT_FOUND", `${name} has no ${type} record`);
  const registryOwner = decodeNameRegistryHeader(fetched.domain.data).owner;
  const owner = await currentOwner(chain, fetched, registryOwner);
  return recordResponse(type, account.data, owner, { strict: true });
}

/**
 * Several V2 records of a TLD-less name, in request order, duplicates
 * repeated and missing records left out. A record whose content cannot be
 * decoded is returned without `deserialized` instead of failing the batch; a
 * record whose header cannot be read fails it (MALFORMED_ACCOUNT).
 */
export async function readRecordsV2(
  chain: ChainReader,
  name: string,
  types: readonly RecordType[],
): Promise<RecordBatchItem[]> {
  const fetched = await fetchRecords(chain, name, types);
  if (!fetched.domain) throw new SnsError("DOMAIN_NOT_FOUND", `domain ${name} does not exist`);
  const registryOwner = decodeNameRegistryHeader(fetched.domain.data).owner;
  const present = types.flatMap((type, i) => {
    const account = fetched.records[i];
    return account ? [{ type, data: account.data }] : [];
  });
  if (present.length === 0) return [];
  const owner = await currentOwner(chain, fetched, registryOwner);
  return present.map(({ type, data }) => recordBatchItem(type, data, owner));
}
