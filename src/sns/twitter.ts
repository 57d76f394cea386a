import type { Address } from "@solana/kit";
import { bytesToAddress } from "./bytes.js";
import { NAME_REGISTRY_HEADER_LEN } from "./constants.js";
import { deriveNameAccount, hashName } from "./derive.js";
import { malformed } from "./layouts/malformed.js";

/** The parent of every Twitter handle registry (the SDK's TWITTER_ROOT_PARENT_REGISTRY_KEY). */
export const TWITTER_ROOT_PARENT_REGISTRY = "4YcexoW3r78zz16J2aqmukBLRwGq6rAvWzJpkYAXqebv" as Address;
/** The class of reverse Twitter registries (the SDK's TWITTER_VERIFICATION_AUTHORITY). */
export const TWITTER_VERIFICATION_AUTHORITY = "FvPH7PrVrLGKPfqaf3xJodFTjZriqrAXXLTVWEorTFBi" as Address;

/** The registry of a Twitter handle: its owner is the verified wallet. */
export const deriveTwitterRegistryKey = (handle: string): Address =>
  deriveNameAccount(hashName(handle), undefined, TWITTER_ROOT_PARENT_REGISTRY);

/** The reverse registry of a verified wallet: it names the handle and its registry. */
export const deriveReverseTwitterRegistryKey = (wallet: Address): Address =>
  deriveNameAccount(hashName(wallet), TWITTER_VERIFICATION_AUTHORITY, TWITTER_ROOT_PARENT_REGISTRY);

export interface ReverseTwitterRegistry {
  readonly twitterRegistryKey: Address;
  readonly twitterHandle: string;
}

const utf8Decoder = new TextDecoder("utf-8", { fatal: false });

/** A reverse Twitter registry account: after the header, the handle's registry key and the handle (borsh). */
export function decodeReverseTwitterRegistry(data: Uint8Array): ReverseTwitterRegistry {
  const body = data.subarray(NAME_REGISTRY_HEADER_LEN);
  if (body.length < 36) malformed("reverse twitter registry", data);
  const length = new DataView(body.buffer, body.byteOffset + 32, 4).getUint32(0, true);
  if (body.length < 36 + length) malformed("reverse twitter registry", data);
  return {
    twitterRegistryKey: bytesToAddress(body.subarray(0, 32)),
    twitterHandle: utf8Decoder.decode(body.subarray(36, 36 + length)),
  };
}
