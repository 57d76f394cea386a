import { utf8 } from "../bytes.js";
import { NAME_REGISTRY_HEADER_LEN } from "../constants.js";
import { malformed } from "./malformed.js";
import { type NameRegistryHeaderInput, decodeNameRegistryHeader, encodeNameRegistry } from "./name-registry.js";

const utf8Decoder = new TextDecoder("utf-8", { fatal: false });

/**
 * Reverse-lookup record: after the header, a u32 length and that many
 * UTF-8 bytes (`\0sub` for subdomains). A length past the end reads what is
 * there, as the official SDK does. `stripSubdomainNul` removes one leading
 * NUL, which readers do only when they know the name is a subdomain.
 */
export function decodeReverseRecord(data: Uint8Array, stripSubdomainNul = false): string {
  decodeNameRegistryHeader(data);
  const payload = data.subarray(NAME_REGISTRY_HEADER_LEN);
  if (payload.length < 4) malformed("reverse record", data);
  const length = new DataView(payload.buffer, payload.byteOffset, 4).getUint32(0, true);
  const text = utf8Decoder.decode(payload.subarray(4, 4 + length));
  return stripSubdomainNul && text.startsWith("\0") ? text.slice(1) : text;
}

export function encodeReverseRecord(header: NameRegistryHeaderInput, name: string): Uint8Array {
  const text = utf8.encode(name);
  const payload = new Uint8Array(4 + text.length);
  new DataView(payload.buffer).setUint32(0, text.length, true);
  payload.set(text, 4);
  return encodeNameRegistry(header, payload);
}
