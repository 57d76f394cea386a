import { utf8 } from "../bytes.js";

/*
 * The few borsh encodings the registrar and name-service instructions use,
 * all little-endian: fixed-width integers, a u32-length-prefixed UTF-8
 * string, and an option as a 0x00 / 0x01 tag before the value.
 */

export const u8 = (value: number): Uint8Array => Uint8Array.of(value);

export function u16(value: number): Uint8Array {
  const bytes = new Uint8Array(2);
  new DataView(bytes.buffer).setUint16(0, value, true);
  return bytes;
}

export function u32(value: number): Uint8Array {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setUint32(0, value, true);
  return bytes;
}

export function u64(value: bigint): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, value, true);
  return bytes;
}

export function borshString(value: string): Uint8Array {
  const text = utf8.encode(value);
  return concatBytes(u32(text.length), text);
}

export const borshOption = (value: Uint8Array | undefined): Uint8Array =>
  value === undefined ? u8(0) : concatBytes(u8(1), value);

export function concatBytes(...parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
