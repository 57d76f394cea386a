import { NAME_REGISTRY_HEADER_LEN } from "./constants.js";
import { decodeNameRegistryHeader } from "./layouts/name-registry.js";
import type { RecordType } from "./record-types.js";

/** Bytes a V1 record of a fixed-size type holds after its header; other types hold their whole body. */
export const RECORD_V1_SIZE: ReadonlyMap<RecordType, number> = new Map<RecordType, number>([
  ["SOL", 96],
  ["ETH", 20],
  ["BSC", 20],
  ["INJ", 20],
  ["A", 4],
  ["AAAA", 16],
  ["background", 32],
]);

/**
 * The body of a V1 record account as the retired hosts' `/record` answered it (the SDK's V1 `getRecord`):
 * the data after the name-registry header, cut to the type's fixed size where it has one.
 */
export function recordV1Body(type: RecordType, account: Uint8Array): Uint8Array {
  decodeNameRegistryHeader(account);
  const body = account.subarray(NAME_REGISTRY_HEADER_LEN);
  const size = RECORD_V1_SIZE.get(type);
  return size === undefined ? body : body.subarray(0, size);
}
