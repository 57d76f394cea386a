import * as untypedSdk from "@bonfida/spl-name-service";
import type { Connection, PublicKey, TransactionInstruction } from "@solana/web3.js";

/*
 * The official SDK (3.0.26) as the tests' oracle. Its declarations use
 * extensionless re-exports that NodeNext cannot follow, so it is typed here
 * with just what the tests call.
 */

/** What record reads call on a connection, so an in-memory stand-in can serve them. */
export type SdkConnection = Pick<Connection, "getAccountInfo" | "getMultipleAccountsInfo" | "getTokenLargestAccounts">;

type ResolveConfig = { allowPda: "any" | false } | { allowPda: true; programIds: PublicKey[] };

export interface SdkRecordResult {
  readonly retrievedRecord: {
    readonly header: { stalenessValidation: number; rightOfAssociationValidation: number; contentLength: number };
    readonly data: Buffer;
    getContent(): Buffer;
  };
  readonly verified: { readonly staleness: boolean; readonly roa?: boolean };
  readonly deserializedContent?: string;
}

interface SdkOracle {
  readonly Record: { readonly [name: string]: string };
  readonly ETH_ROA_RECORDS: ReadonlySet<string>;
  readonly SELF_SIGNED: ReadonlySet<string>;
  readonly GUARDIANS: ReadonlyMap<string, { toBase58(): string }>;
  resolve(connection: Connection, domain: string, config?: ResolveConfig): Promise<PublicKey>;
  getRecordV2(
    connection: SdkConnection,
    domain: string,
    record: string,
    options?: { deserialize?: boolean },
  ): Promise<SdkRecordResult>;
  getMultipleRecordsV2(
    connection: SdkConnection,
    domain: string,
    records: string[],
    options?: { deserialize?: boolean },
  ): Promise<(SdkRecordResult | undefined)[]>;
  deserializeRecordV2Content(content: Buffer, record: string): string;
  getDomainKeySync(domain: string): { pubkey: PublicKey };
  getReverseKeySync(domain: string, isSub?: boolean): PublicKey;
  reverseLookup(connection: Connection, nameAccount: PublicKey, parent?: PublicKey): Promise<string>;
  getAllDomains(connection: Connection, wallet: PublicKey): Promise<PublicKey[]>;
  reverseLookupBatch(connection: Connection, nameAccounts: PublicKey[]): Promise<(string | undefined)[]>;
  getTokenizedDomains(
    connection: Connection,
    wallet: PublicKey,
  ): Promise<{ key: PublicKey; mint: PublicKey; reverse: string }[]>;
  getFavoriteDomain(
    connection: Connection,
    wallet: PublicKey,
  ): Promise<{ domain: PublicKey; reverse: string; stale: boolean }>;
  getMultipleFavoriteDomains(connection: Connection, wallets: PublicKey[]): Promise<(string | undefined)[]>;
  findSubdomains(connection: Connection, parent: PublicKey): Promise<string[]>;
  NameRegistryState: {
    retrieve(connection: Connection, key: PublicKey): Promise<{ registry: { parentName: PublicKey } }>;
  };
  ROOT_DOMAIN_ACCOUNT: PublicKey;
  registerDomainNameV2(
    connection: Pick<Connection, "getAccountInfo">,
    name: string,
    space: number,
    buyer: PublicKey,
    buyerTokenAccount: PublicKey,
    mint?: PublicKey,
    referrer?: PublicKey,
  ): Promise<TransactionInstruction[]>;
  createSubdomain(
    connection: Connection,
    subdomain: string,
    owner: PublicKey,
    space?: number,
    feePayer?: PublicKey,
  ): Promise<TransactionInstruction[]>;
  readonly REFERRERS: readonly PublicKey[];
  readonly PYTH_PULL_FEEDS: ReadonlyMap<string, number[]>;
  readonly VAULT_OWNER: PublicKey;
  serializeRecordV2Content(content: string, record: string): Buffer;
  getRecordKeySync(domain: string, record: string): PublicKey;
  transferInstruction(
    programId: PublicKey,
    nameAccount: PublicKey,
    newOwner: PublicKey,
    currentOwner: PublicKey,
  ): TransactionInstruction;
  getTwitterRegistryKey(handle: string): Promise<PublicKey>;
  getHashedNameSync(name: string): Buffer;
  getNameAccountKeySync(hashed: Buffer, nameClass?: PublicKey, parent?: PublicKey): PublicKey;
  readonly TWITTER_ROOT_PARENT_REGISTRY_KEY: PublicKey;
  readonly TWITTER_VERIFICATION_AUTHORITY: PublicKey;
  readonly RECORD_V1_SIZE: ReadonlyMap<string, number>;
}

export const sdk = untypedSdk as unknown as SdkOracle;

/** The record object the upstream proxy serializes for an SDK result; batch items carry their type. */
export function upstreamRecord(result: SdkRecordResult, type?: string) {
  return {
    ...(type !== undefined && { type }),
    deserialized: result.deserializedContent,
    stale: !result.verified.staleness,
    roa: result.verified.roa,
    record: { header: result.retrievedRecord.header, data: result.retrievedRecord.data.toString("base64") },
  };
}

/** The SDK's text for content, or undefined where its decoder throws (as it does for every `background`). */
export function tryDecode(type: string, content: Buffer): string | undefined {
  try {
    return sdk.deserializeRecordV2Content(content, type);
  } catch {
    return undefined;
  }
}
