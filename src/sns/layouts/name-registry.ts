import type { Address } from "@solana/kit";
import { addressToBytes, bytesEqual, bytesToAddress } from "../bytes.js";
import { NAME_REGISTRY_HEADER_LEN, SNS_ROOT_DOMAIN } from "../constants.js";
import { malformed } from "./malformed.js";

/** The 96-byte header every name-service account starts with: parent, owner, class; fields are views into the account. */
export interface NameRegistryHeader {
  readonly parentName: Uint8Array;
  readonly owner: Uint8Array;
  readonly nameClass: Uint8Array;
}

export function decodeNameRegistryHeader(data: Uint8Array): NameRegistryHeader {
  if (data.length < NAME_REGISTRY_HEADER_LEN) malformed("name registry", data);
  return {
    parentName: data.subarray(0, 32),
    owner: data.subarray(32, 64),
    nameClass: data.subarray(64, 96),
  };
}

/** The owner field alone, as `decodeNameRegistryHeader` reads it (same check): one view instead of three. */
export function decodeNameRegistryOwner(data: Uint8Array): Uint8Array {
  if (data.length < NAME_REGISTRY_HEADER_LEN) malformed("name registry", data);
  return data.subarray(32, 64);
}

const ROOT_BYTES = addressToBytes(SNS_ROOT_DOMAIN);

/** Whether a header's parent is the SNS root, i.e. the account is a top-level domain. */
export const isRootParent = (parentName: Uint8Array): boolean => bytesEqual(parentName, ROOT_BYTES);

export const headerOwnerAddress = (header: NameRegistryHeader): Address => bytesToAddress(header.owner);

export interface NameRegistryHeaderInput {
  /** Absent for top-level reverse records, which have no parent. */
  readonly parent?: Address;
  readonly owner: Address;
  readonly nameClass?: Address;
}

export function writeKey(target: Uint8Array, offset: number, key: Address | undefined): void {
  if (key !== undefined) target.set(addressToBytes(key), offset);
}

/** 96-byte name registry header followed by `payload` (or that many zero bytes). */
export function encodeNameRegistry(header: NameRegistryHeaderInput, payload: Uint8Array | number = 0): Uint8Array {
  const length = typeof payload === "number" ? payload : payload.length;
  const data = new Uint8Array(NAME_REGISTRY_HEADER_LEN + length);
  writeKey(data, 0, header.parent);
  writeKey(data, 32, header.owner);
  writeKey(data, 64, header.nameClass);
  if (typeof payload !== "number") data.set(payload, NAME_REGISTRY_HEADER_LEN);
  return data;
}
