import type { Address } from "@solana/kit";
import { addressToBytes, bytesEqual } from "../bytes.js";
import { SOL_SRS_CLASS, SRS_PROGRAM_ID } from "../constants.js";
import type { AccountData } from "../chain.js";
import { SnsError } from "../errors.js";
import { writeKey } from "./name-registry.js";

/**
 * SRS record: discriminator u8 (2) at 0, class at 1..33, owner type u8 at 33
 * (0 a public key, 1 a Token-2022 mint), owner at 34..66, frozen flag at 66,
 * expiry i64 (unix seconds, 0 never) at 67..75. Bytes after 75 are ignored.
 */
export const SRS_RECORD_HEADER_LEN = 75;
export const SRS_RECORD_DISCRIMINATOR = 2;

export const SrsOwnerType = { PublicKey: 0, Token: 1 } as const;
export type SrsOwnerType = (typeof SrsOwnerType)[keyof typeof SrsOwnerType];

export interface SrsRecord {
  readonly ownerType: SrsOwnerType;
  /** A wallet, or the mint whose unique holder owns the name. */
  readonly owner: Uint8Array;
  /** Not consulted by resolution: a frozen record resolves. */
  readonly frozen: boolean;
  /** Unix seconds; 0 never expires, and a negative value is long past. */
  readonly expiry: bigint;
}

const SOL_SRS_CLASS_BYTES = addressToBytes(SOL_SRS_CLASS);
const malformed = (message: string) => new SnsError("RECORD_MALFORMED", message);

/** Decodes an SRS record, checking what makes it one: its program, size, discriminator, class and owner type. */
export function decodeSrsRecord(account: AccountData): SrsRecord {
  const { data } = account;
  if (account.owner !== SRS_PROGRAM_ID || data.length < SRS_RECORD_HEADER_LEN || data[0] !== SRS_RECORD_DISCRIMINATOR) {
    throw malformed("SRS record is malformed");
  }
  if (!bytesEqual(data.subarray(1, 33), SOL_SRS_CLASS_BYTES)) throw malformed("SRS record has an invalid class");
  const ownerType = data[33]!;
  if (ownerType !== SrsOwnerType.PublicKey && ownerType !== SrsOwnerType.Token) {
    throw malformed("SRS record has an invalid owner type");
  }
  return {
    ownerType,
    owner: data.subarray(34, 66),
    frozen: data[66] !== 0,
    expiry: new DataView(data.buffer, data.byteOffset, data.byteLength).getBigInt64(67, true),
  };
}

export interface SrsRecordInput {
  readonly owner: Address;
  /** Default 0 (a public key); any byte, to write malformed records. */
  readonly ownerType?: number;
  readonly expiry?: bigint;
  readonly frozen?: boolean;
  /** Default SOL_SRS_CLASS. */
  readonly recordClass?: Address;
  /** Default 2. */
  readonly discriminator?: number;
  /** Zero bytes after the header. */
  readonly trailing?: number;
}

export function encodeSrsRecord(input: SrsRecordInput): Uint8Array {
  const data = new Uint8Array(SRS_RECORD_HEADER_LEN + (input.trailing ?? 0));
  data[0] = input.discriminator ?? SRS_RECORD_DISCRIMINATOR;
  writeKey(data, 1, input.recordClass ?? SOL_SRS_CLASS);
  data[33] = input.ownerType ?? SrsOwnerType.PublicKey;
  writeKey(data, 34, input.owner);
  data[66] = input.frozen ? 1 : 0;
  new DataView(data.buffer).setBigInt64(67, input.expiry ?? 0n, true);
  return data;
}
