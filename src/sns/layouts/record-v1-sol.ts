import type { Address } from "@solana/kit";
import { addressToBytes, toHex, utf8 } from "../bytes.js";
import { NAME_REGISTRY_HEADER_LEN, SIGNATURE_LEN } from "../constants.js";
import { malformed } from "./malformed.js";
import { encodeNameRegistry } from "./name-registry.js";

const PAYLOAD_END = NAME_REGISTRY_HEADER_LEN + 32 + SIGNATURE_LEN;

/** V1 SOL record: header, 32-byte target, 64-byte signature; views into the account. */
export interface RecordV1Sol {
  readonly target: Uint8Array;
  readonly signature: Uint8Array;
}

export function decodeRecordV1Sol(data: Uint8Array): RecordV1Sol {
  if (data.length < PAYLOAD_END) malformed("V1 SOL record", data);
  return {
    target: data.subarray(NAME_REGISTRY_HEADER_LEN, NAME_REGISTRY_HEADER_LEN + 32),
    signature: data.subarray(NAME_REGISTRY_HEADER_LEN + 32, PAYLOAD_END),
  };
}

/** What the registry owner signs: the ASCII lowercase hex of target ‖ record key, not the raw bytes. */
export function recordV1SolMessage(target: Address | Uint8Array, recordKey: Address): Uint8Array {
  const targetBytes = typeof target === "string" ? addressToBytes(target) : target;
  return utf8.encode(toHex(targetBytes) + toHex(addressToBytes(recordKey)));
}

export interface RecordV1SolInput {
  readonly domainKey: Address;
  readonly owner: Address;
  readonly target: Address;
  readonly signature: Uint8Array;
}

export function encodeRecordV1Sol(input: RecordV1SolInput): Uint8Array {
  if (input.signature.length !== SIGNATURE_LEN) throw new RangeError("a V1 SOL signature has 64 bytes");
  const payload = new Uint8Array(32 + SIGNATURE_LEN);
  payload.set(addressToBytes(input.target));
  payload.set(input.signature, 32);
  return encodeNameRegistry({ parent: input.domainKey, owner: input.owner }, payload);
}
