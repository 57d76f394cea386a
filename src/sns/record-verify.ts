import { addressToBytes, bytesEqual } from "./bytes.js";
import { GUARDIAN_KEY } from "./constants.js";
import { ETH_ROA_RECORDS, GUARDIAN_RECORDS, type RecordType, SELF_SIGNED_RECORDS } from "./record-types.js";
import { type RecordV2, Validation } from "./layouts/record-v2.js";

/** Outcome of checking a V2 record against its domain (staleness and right of association), shaped like the SDK's `verified`. */
export interface RecordVerification {
  /** The staleness id is the domain's current owner, signed as a Solana key. */
  readonly staleness: boolean;
  /** Present only for types with a verifier (self-signed and guardian types). */
  readonly roa?: boolean;
}

const GUARDIAN_BYTES = addressToBytes(GUARDIAN_KEY);

/**
 * Bytes the right-of-association id must equal, or undefined when the type
 * has no verifier. Self-signed types are vouched for by their own content.
 */
export function roaVerifier(type: RecordType, record: RecordV2): Uint8Array | undefined {
  if (SELF_SIGNED_RECORDS.has(type)) return record.content;
  if (GUARDIAN_RECORDS.has(type)) return GUARDIAN_BYTES;
  return undefined;
}

export const expectedRoaValidation = (type: RecordType): Validation =>
  ETH_ROA_RECORDS.has(type) ? Validation.Ethereum : Validation.Solana;

/**
 * web3.js `PublicKey#equals`: keys are compared as big-endian integers, so
 * leading zero bytes do not count and a short id equals its zero-padded form.
 */
function publicKeyEquals(a: Uint8Array, b: Uint8Array): boolean {
  return bytesEqual(stripLeadingZeros(a), stripLeadingZeros(b));
}

function stripLeadingZeros(bytes: Uint8Array): Uint8Array {
  let start = 0;
  while (start < bytes.length && bytes[start] === 0) start++;
  return bytes.subarray(start);
}

/**
 * `owner` is whoever controls the domain now: the holder of its NFT when it
 * is tokenized, else the registry owner. The caller resolves it.
 */
export function verifyRecordV2(type: RecordType, record: RecordV2, owner: Uint8Array): RecordVerification {
  const staleness =
    publicKeyEquals(owner, record.stalenessId) && record.header.stalenessValidation === Validation.Solana;
  const verifier = roaVerifier(type, record);
  if (verifier === undefined) return { staleness };
  const roa =
    bytesEqual(verifier, record.roaId) && record.header.rightOfAssociationValidation === expectedRoaValidation(type);
  return { staleness, roa };
}
