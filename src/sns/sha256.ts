/**
 * SHA-256 (FIPS 180-4) of one byte string, in one call, with no allocation
 * but the 32 bytes returned: the message schedule and the padded tail live
 * in arrays made once, and the state in locals. Derivations hash short
 * inputs (a name, a PDA's seeds: one or two blocks) about ten times per new
 * name, where `@noble/hashes`' `sha256` builds a hasher object, its buffer
 * and views on every call. Synchronous and not re-entrant (nothing it calls
 * can call it), as JavaScript runs one call at a time per thread.
 * test/sns/sha256.test.ts holds it to `@noble/hashes` and `node:crypto`
 * over generated inputs of every length up to four blocks and beyond.
 */

const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);
const INITIAL = new Int32Array([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);

/** The message schedule of the block being compressed. */
const W = new Int32Array(64);
/** The chaining state between blocks. */
const H = new Int32Array(8);
/** The message's last partial block, its 0x80, zeros and its bit length: one or two blocks. */
const TAIL = new Uint8Array(128);

/** Folds the 64-byte block of `bytes` at `offset` into H. */
function compress(bytes: Uint8Array, offset: number): void {
  for (let t = 0; t < 16; t++, offset += 4) {
    W[t] = (bytes[offset]! << 24) | (bytes[offset + 1]! << 16) | (bytes[offset + 2]! << 8) | bytes[offset + 3]!;
  }
  for (let t = 16; t < 64; t++) {
    const w15 = W[t - 15]!;
    const w2 = W[t - 2]!;
    const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3);
    const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10);
    W[t] = (W[t - 16]! + s0 + W[t - 7]! + s1) | 0;
  }
  let a = H[0]!;
  let b = H[1]!;
  let c = H[2]!;
  let d = H[3]!;
  let e = H[4]!;
  let f = H[5]!;
  let g = H[6]!;
  let h = H[7]!;
  for (let t = 0; t < 64; t++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + S1 + ((e & f) ^ (~e & g)) + K[t]! + W[t]!) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  H[0] = (H[0]! + a) | 0;
  H[1] = (H[1]! + b) | 0;
  H[2] = (H[2]! + c) | 0;
  H[3] = (H[3]! + d) | 0;
  H[4] = (H[4]! + e) | 0;
  H[5] = (H[5]! + f) | 0;
  H[6] = (H[6]! + g) | 0;
  H[7] = (H[7]! + h) | 0;
}

/** The 32-byte SHA-256 digest of `message`. */
export function sha256(message: Uint8Array): Uint8Array {
  H.set(INITIAL);
  const length = message.length;
  const whole = length - (length % 64);
  for (let offset = 0; offset < whole; offset += 64) compress(message, offset);
  const rest = length - whole;
  const tailLength = rest < 56 ? 64 : 128;
  TAIL.fill(0, 0, tailLength);
  for (let i = 0; i < rest; i++) TAIL[i] = message[whole + i]!;
  TAIL[rest] = 0x80;
  // The length in bits, big-endian in the last 8 bytes: its high word from the bytes' count over 2^29.
  const high = Math.floor(length / 0x20000000);
  const low = (length << 3) >>> 0;
  for (let i = 0; i < 4; i++) {
    TAIL[tailLength - 8 + i] = (high >>> (24 - 8 * i)) & 0xff;
    TAIL[tailLength - 4 + i] = (low >>> (24 - 8 * i)) & 0xff;
  }
  compress(TAIL, 0);
  if (tailLength === 128) compress(TAIL, 64);
  const digest = new Uint8Array(32);
  for (let i = 0; i < 8; i++) {
    const word = H[i]!;
    digest[4 * i] = word >>> 24;
    digest[4 * i + 1] = (word >>> 16) & 0xff;
    digest[4 * i + 2] = (word >>> 8) & 0xff;
    digest[4 * i + 3] = word & 0xff;
  }
  return digest;
}
