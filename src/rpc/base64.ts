// Account data arrives as base64 in every getMultipleAccounts answer, so its
// decoding is on the hot path. Generic decoders cost several times what the
// rest of an account's parsing does (@scure/base converts through a radix
// routine, kit's codec validates then decodes twice); this is one table-driven
// pass that decodes and validates together, platform-free.

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const PAD = 61; // "="
const SEXTETS = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) SEXTETS[ALPHABET.charCodeAt(i)] = i;

/** Value of the character at `i`, or -1 for anything outside the alphabet. */
function sextet(text: string, i: number): number {
  const code = text.charCodeAt(i);
  return code < 128 ? SEXTETS[code]! : -1;
}

/**
 * Bytes of canonical padded base64 (RFC 4648: length a multiple of 4, the
 * unused bits of the last group zero, as strict decoders insist); undefined
 * for anything else.
 */
export function decodeCanonicalBase64(text: string): Uint8Array | undefined {
  const { length } = text;
  if (length % 4 !== 0) return undefined;
  const padding = length === 0 || text.charCodeAt(length - 1) !== PAD ? 0 : text.charCodeAt(length - 2) === PAD ? 2 : 1;
  const bytes = new Uint8Array((length / 4) * 3 - padding);
  const whole = padding ? length - 4 : length;
  let out = 0;
  for (let i = 0; i < whole; i += 4) {
    const a = sextet(text, i);
    const b = sextet(text, i + 1);
    const c = sextet(text, i + 2);
    const d = sextet(text, i + 3);
    if ((a | b | c | d) < 0) return undefined;
    bytes[out++] = (a << 2) | (b >> 4);
    bytes[out++] = ((b & 15) << 4) | (c >> 2);
    bytes[out++] = ((c & 3) << 6) | d;
  }
  if (padding === 0) return bytes;
  const a = sextet(text, whole);
  const b = sextet(text, whole + 1);
  if ((a | b) < 0) return undefined;
  bytes[out++] = (a << 2) | (b >> 4);
  if (padding === 2) return (b & 15) === 0 ? bytes : undefined;
  const c = sextet(text, whole + 2);
  if (c < 0 || (c & 3) !== 0) return undefined;
  bytes[out] = ((b & 15) << 4) | (c >> 2);
  return bytes;
}
