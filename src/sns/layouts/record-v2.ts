import { addressToBytes } from "../bytes.js";
import { CENTRAL_STATE_SNS_RECORDS, NAME_REGISTRY_HEADER_LEN, RECORD_V2_HEADER_LEN } from "../constants.js";
import { SnsError } from "../errors.js";

/** Validation kinds of a V2 record's staleness and right-of-association ids. */
export const Validation = {
  None: 0,
  Solana: 1,
  Ethereum: 2,
  UnverifiedSolana: 3,
} as const;
export type Validation = (typeof Validation)[keyof typeof Validation];

const ID_LENGTH: Record<number, number> = { 0: 0, 1: 32, 2: 20, 3: 32 };

export function validationIdLength(validation: number): number {
  const length = ID_LENGTH[validation];
  if (length === undefined) throw new SnsError("MALFORMED_ACCOUNT", `invalid validation value ${validation}`);
  return length;
}

export interface RecordV2Header {
  readonly stalenessValidation: number;
  readonly rightOfAssociationValidation: number;
  /** Stored but not trusted: content always runs to the end of the account. */
  readonly contentLength: number;
}

export interface RecordV2 {
  readonly header: RecordV2Header;
  readonly stalenessId: Uint8Array;
  readonly roaId: Uint8Array;
  readonly content: Uint8Array;
  /** Bytes from offset 104 to the end: ids followed by content. */
  readonly data: Uint8Array;
}

const PAYLOAD_OFFSET = NAME_REGISTRY_HEADER_LEN + RECORD_V2_HEADER_LEN;

/** Decodes a V2 record account; ids and content are views into `account`. */
export function decodeRecordV2(account: Uint8Array): RecordV2 {
  if (account.length < PAYLOAD_OFFSET) {
    throw new SnsError("MALFORMED_ACCOUNT", `V2 record account has ${account.length} bytes`);
  }
  const view = new DataView(account.buffer, account.byteOffset, account.byteLength);
  const header: RecordV2Header = {
    stalenessValidation: view.getUint16(NAME_REGISTRY_HEADER_LEN, true),
    rightOfAssociationValidation: view.getUint16(NAME_REGISTRY_HEADER_LEN + 2, true),
    contentLength: view.getUint32(NAME_REGISTRY_HEADER_LEN + 4, true),
  };
  const stalenessEnd = PAYLOAD_OFFSET + validationIdLength(header.stalenessValidation);
  const roaEnd = stalenessEnd + validationIdLength(header.rightOfAssociationValidation);
  if (roaEnd > account.length) {
    throw new SnsError("MALFORMED_ACCOUNT", "V2 record shorter than its validation ids");
  }
  return {
    header,
    stalenessId: account.subarray(PAYLOAD_OFFSET, stalenessEnd),
    roaId: account.subarray(stalenessEnd, roaEnd),
    content: account.subarray(roaEnd),
    data: account.subarray(PAYLOAD_OFFSET),
  };
}

export interface RecordV2AccountFields {
  /** The (sub)domain the record belongs to. */
  readonly parent?: Uint8Array;
  /** Registry owner of the record account. */
  readonly owner?: Uint8Array;
  /** Defaults to CENTRAL_STATE_SNS_RECORDS, the class every V2 record has. */
  readonly recordClass?: Uint8Array;
  readonly stalenessValidation?: number;
  readonly rightOfAssociationValidation?: number;
  readonly stalenessId?: Uint8Array;
  readonly roaId?: Uint8Array;
  readonly content: Uint8Array;
  /** Defaults to the content length; readers ignore it. */
  readonly contentLength?: number;
}

const ZERO_KEY = new Uint8Array(32);
const CLASS_BYTES = addressToBytes(CENTRAL_STATE_SNS_RECORDS);

/**
 * Account data of a V2 record, the inverse of `decodeRecordV2`. Ids
 * default to empty with validation None; ids are written as given, so
 * fixtures can also build accounts whose ids disagree with their validation.
 */
export function encodeRecordV2Account(fields: RecordV2AccountFields): Uint8Array {
  const stalenessId = fields.stalenessId ?? new Uint8Array(0);
  const roaId = fields.roaId ?? new Uint8Array(0);
  const payloadOffset = NAME_REGISTRY_HEADER_LEN + RECORD_V2_HEADER_LEN;
  const data = new Uint8Array(payloadOffset + stalenessId.length + roaId.length + fields.content.length);
  data.set(fields.parent ?? ZERO_KEY, 0);
  data.set(fields.owner ?? ZERO_KEY, 32);
  data.set(fields.recordClass ?? CLASS_BYTES, 64);
  const view = new DataView(data.buffer);
  view.setUint16(NAME_REGISTRY_HEADER_LEN, fields.stalenessValidation ?? Validation.None, true);
  view.setUint16(NAME_REGISTRY_HEADER_LEN + 2, fields.rightOfAssociationValidation ?? Validation.None, true);
  view.setUint32(NAME_REGISTRY_HEADER_LEN + 4, fields.contentLength ?? fields.content.length, true);
  data.set(stalenessId, payloadOffset);
  data.set(roaId, payloadOffset + stalenessId.length);
  data.set(fields.content, payloadOffset + stalenessId.length + roaId.length);
  return data;
}
