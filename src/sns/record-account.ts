import { addressToBytes } from "./bytes.js";
import { CENTRAL_STATE_SNS_RECORDS, NAME_REGISTRY_HEADER_LEN, RECORD_V2_HEADER_LEN } from "./constants.js";
import { Validation } from "./records-v2.js";

export interface RecordV2AccountFields {
  /** The (sub)domain the record belongs to. */
  readonly parent?: Uint8Array;
  /** Registry owner of the record account. */
  readonly owner?: Uint8Array;
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
 * Account data of a V2 record (§3.3), the inverse of `decodeRecordV2`. Ids
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
  data.set(CLASS_BYTES, 64);
  const view = new DataView(data.buffer);
  view.setUint16(NAME_REGISTRY_HEADER_LEN, fields.stalenessValidation ?? Validation.None, true);
  view.setUint16(NAME_REGISTRY_HEADER_LEN + 2, fields.rightOfAssociationValidation ?? Validation.None, true);
  view.setUint32(NAME_REGISTRY_HEADER_LEN + 4, fields.contentLength ?? fields.content.length, true);
  data.set(stalenessId, payloadOffset);
  data.set(roaId, payloadOffset + stalenessId.length);
  data.set(fields.content, payloadOffset + stalenessId.length + roaId.length);
  return data;
}
