import { base64 } from "@scure/base";
import { SnsError } from "./errors.js";
import { decodeRecordContent, hasContentCodec } from "./record-content.js";
import type { RecordType } from "./record-types.js";
import { verifyRecordV2 } from "./record-verify.js";
import { type RecordV2Header, decodeRecordV2 } from "./layouts/record-v2.js";

/**
 * JSON body for one V2 record, as upstream's `/record-v2` writes it. Keys are declared in upstream's
 * serialization order: `deserialized, stale, roa, record`.
 */
export interface RecordResponse {
  /** Absent for `background` records, and for undecodable content in lenient mode. */
  readonly deserialized?: string;
  readonly stale: boolean;
  readonly roa?: boolean;
  readonly record: {
    readonly header: RecordV2Header;
    /** Base64 of the account bytes from offset 104: ids followed by content. */
    readonly data: string;
  };
}

export interface RecordResponseOptions {
  /**
   * Strict (the single-record route): content that cannot be decoded throws
   * `SnsError("INVALID_RECORD_DATA")`. Lenient (the batch route): the record
   * is returned without `deserialized`, so one bad record does not sink the
   * others.
   */
  readonly strict: boolean;
}

const toBase64 = (bytes: Uint8Array): string => base64.encode(bytes);

function deserialize(type: RecordType, content: Uint8Array, strict: boolean): string | undefined {
  // `background` content has no string form anywhere; it is not an error.
  if (!hasContentCodec(type)) return undefined;
  try {
    return decodeRecordContent(type, content);
  } catch (error) {
    if (!strict && error instanceof SnsError && error.code === "INVALID_RECORD_DATA") return undefined;
    throw error;
  }
}

/**
 * Builds the response for the V2 record `type` stored in `account` (full
 * account data, header included), judged against the domain's current
 * `owner`. An account whose V2 header cannot be read throws
 * `SnsError("MALFORMED_ACCOUNT")` in both modes: without a header there is
 * nothing truthful to report, not even `stale`.
 */
export function recordResponse(
  type: RecordType,
  account: Uint8Array,
  owner: Uint8Array,
  options: RecordResponseOptions = { strict: true },
): RecordResponse {
  const record = decodeRecordV2(account);
  const { staleness, roa } = verifyRecordV2(type, record, owner);
  const deserialized = deserialize(type, record.content, options.strict);
  const { stalenessValidation, rightOfAssociationValidation, contentLength } = record.header;
  return {
    ...(deserialized !== undefined && { deserialized }),
    stale: !staleness,
    ...(roa !== undefined && { roa }),
    record: {
      header: { stalenessValidation, rightOfAssociationValidation, contentLength },
      data: toBase64(record.data),
    },
  };
}

/** An item of the batch route: the record's type first, then the lenient response. */
export type RecordBatchItem = { readonly type: RecordType } & RecordResponse;

export const recordBatchItem = (type: RecordType, account: Uint8Array, owner: Uint8Array): RecordBatchItem => ({
  type,
  ...recordResponse(type, account, owner, { strict: false }),
});
