import { createHash } from "node:crypto";
import { type AccountInfo, Connection, PublicKey } from "@solana/web3.js";

/*
 * A reference resolver of SRS-backed `.sol` names, written from the protocol
 * description alone and independent of src/: web3.js reads each account with
 * its own getAccountInfo, in the order upstream's SDK does, and every layout
 * is read here from its offsets. Used by the SRS differential test.
 */

const SRS_PROGRAM = new PublicKey("srsWjm76StJucL7atFyPSdXFaVLNPFqEt1uFEDPrZsn");
const SOL_SRS_CLASS = new PublicKey("AjheAtCgSwEcEYd6xi6thcQW25ELWd7wKCx6SKBGUtMQ");
const TOKEN_2022 = new PublicKey("TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb");
const NAME_PROGRAM = new PublicKey("namesLPneVptA9Z5rqUDD9tMTWEJwofgaYwp8cawRkX");
const SNS_ROOT = new PublicKey("58PwtjSDuFHuUkYjH9BYnnQKHfwo9reZhC2zMJv9JPkx");

export type ReferencePolicy =
  | { readonly allowPda: false }
  | { readonly allowPda: "any" }
  | { readonly allowPda: true; readonly programIds: readonly string[] };

/** What the reference reached, named after upstream's outcomes. */
export type ReferenceOutcome =
  | { readonly kind: "key"; readonly key: string }
  | {
      readonly kind:
        | "DomainDoesNotExist"
        | "RecordMalformed"
        | "DomainExpired"
        | "PdaOwnerNotAllowed"
        | "CouldNotFindSrsOwner"
        | "RpcError";
    };

class Outcome extends Error {
  constructor(readonly outcome: ReferenceOutcome) {
    super(outcome.kind);
  }
}
const fail = (kind: Exclude<ReferenceOutcome["kind"], "key">): never => {
  throw new Outcome({ kind });
};

/** The record: PDA(["record", SOL_SRS_CLASS, sha256("SRS" + name)], SRS program); its mint: PDA(["mint", record]). */
export function referenceSrsKeys(name: string): { record: PublicKey; mint: PublicKey } {
  const hashed = createHash("sha256")
    .update(Buffer.from(`SRS${name}`, "utf8"))
    .digest();
  const [record] = PublicKey.findProgramAddressSync(
    [Buffer.from("record"), SOL_SRS_CLASS.toBuffer(), hashed],
    SRS_PROGRAM,
  );
  const [mint] = PublicKey.findProgramAddressSync([Buffer.from("mint"), record.toBuffer()], SRS_PROGRAM);
  return { record, mint };
}

async function ownerAllowed(connection: Connection, owner: PublicKey, policy: ReferencePolicy): Promise<string> {
  if (PublicKey.isOnCurve(owner.toBytes()) || policy.allowPda === "any") return owner.toBase58();
  if (policy.allowPda === true) {
    const info = await connection.getAccountInfo(owner);
    if (info && policy.programIds.includes(info.owner.toBase58())) return owner.toBase58();
  }
  return fail("PdaOwnerNotAllowed");
}

/** spl-token 0.4: ≥ 82 bytes; longer only past 165 bytes, not 355, with account type 1 at byte 165. */
function readMint(data: Buffer): { initialized: boolean; decimals: number; supply: bigint } | null {
  if (data.length < 82) return null;
  if (data.length > 82 && (data.length <= 165 || data.length === 355 || data[165] !== 1)) return null;
  return { supply: data.readBigUInt64LE(36), decimals: data[44]!, initialized: data[45] !== 0 };
}

/** spl-token 0.4: ≥ 165 bytes; longer only when not 355 and account type 2 at byte 165; state 0 is uninitialized. */
function readTokenAccount(
  data: Buffer,
): { mint: PublicKey; owner: PublicKey; amount: bigint; initialized: boolean } | null {
  if (data.length < 165) return null;
  if (data.length > 165 && (data.length === 355 || data[165] !== 2)) return null;
  return {
    mint: new PublicKey(data.subarray(0, 32)),
    owner: new PublicKey(data.subarray(32, 64)),
    amount: data.readBigUInt64LE(64),
    initialized: data[108] !== 0,
  };
}

const isToken2022 = (info: AccountInfo<Buffer> | null): info is AccountInfo<Buffer> =>
  info !== null && info.owner.equals(TOKEN_2022);

async function tokenOwner(connection: Connection, mint: PublicKey): Promise<PublicKey> {
  const mintInfo = await connection.getAccountInfo(mint);
  const mintState = isToken2022(mintInfo) ? readMint(mintInfo.data) : null;
  if (!mintState || !mintState.initialized || mintState.decimals !== 0 || mintState.supply !== 1n)
    return fail("CouldNotFindSrsOwner");
  let largest: { address: PublicKey; amount: string }[];
  try {
    largest = (await connection.getTokenLargestAccounts(mint)).value;
  } catch (error) {
    // The node knows no such mint: no holder.
    if ((error as { code?: unknown }).code === -32602) return fail("CouldNotFindSrsOwner");
    throw error;
  }
  const holders = largest.filter((entry) => entry.amount === "1");
  if (holders.length !== 1) return fail("CouldNotFindSrsOwner");
  const holderInfo = await connection.getAccountInfo(holders[0]!.address);
  const holder = isToken2022(holderInfo) ? readTokenAccount(holderInfo.data) : null;
  if (!holder || !holder.initialized || !holder.mint.equals(mint) || holder.amount !== 1n)
    return fail("CouldNotFindSrsOwner");
  return holder.owner;
}

async function resolve(
  connection: Connection,
  name: string,
  policy: ReferencePolicy,
  nowSeconds: number,
): Promise<string> {
  const { record, mint } = referenceSrsKeys(name);
  const info = await connection.getAccountInfo(record);
  if (!info) return fail("DomainDoesNotExist");
  const data = info.data;
  if (!info.owner.equals(SRS_PROGRAM) || data.length < 75 || data[0] !== 2) return fail("RecordMalformed");
  if (!new PublicKey(data.subarray(1, 33)).equals(SOL_SRS_CLASS)) return fail("RecordMalformed");
  const ownerType = data[33];
  if (ownerType !== 0 && ownerType !== 1) return fail("RecordMalformed");
  const expiry = data.readBigInt64LE(67);
  if (expiry !== 0n && expiry <= BigInt(nowSeconds)) return fail("DomainExpired");
  const owner = new PublicKey(data.subarray(34, 66));
  if (ownerType === 0) return ownerAllowed(connection, owner, policy);
  if (!owner.equals(mint)) return fail("RecordMalformed");
  return ownerAllowed(connection, await tokenOwner(connection, mint), policy);
}

/** The SRS outcome of a TLD-less `.sol` name; any failure of the RPC exchange is `RpcError`. */
export async function referenceResolveSrs(
  connection: Connection,
  name: string,
  policy: ReferencePolicy,
  nowSeconds: number,
): Promise<ReferenceOutcome> {
  try {
    return { kind: "key", key: await resolve(connection, name, policy, nowSeconds) };
  } catch (error) {
    if (error instanceof Outcome) return error.outcome;
    return { kind: "RpcError" };
  }
}

/**
 * The name-service side for the plain registry-owned one-label names the
 * differential generates (no NFT record, no SOL record, an on-curve owner):
 * the domain's registry owner, or DomainDoesNotExist.
 */
export async function referenceRegistryOwner(connection: Connection, name: string): Promise<ReferenceOutcome> {
  const hashed = createHash("sha256")
    .update(Buffer.from(`SPL Name Service${name}`, "utf8"))
    .digest();
  const [domainKey] = PublicKey.findProgramAddressSync([hashed, Buffer.alloc(32), SNS_ROOT.toBuffer()], NAME_PROGRAM);
  try {
    const info = await connection.getAccountInfo(domainKey);
    if (!info) return { kind: "DomainDoesNotExist" };
    return { kind: "key", key: new PublicKey(info.data.subarray(32, 64)).toBase58() };
  } catch {
    return { kind: "RpcError" };
  }
}

export { Connection, PublicKey };
