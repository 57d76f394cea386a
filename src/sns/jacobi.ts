/** Bits per limb, and limbs per number: 260 bits, enough for field elements of 2^255 − 19. */
export const LIMB_BITS = 26;
export const LIMBS = 10;
const RADIX = 2 ** LIMB_BITS;
const INVERSE_RADIX = 2 ** -LIMB_BITS;
const BIG_LIMB_BITS = BigInt(LIMB_BITS);

/**
 * The Jacobi symbol (a/n) for odd n (for prime n: 1 when a is a nonzero square mod n, −1 when not),
 * on numbers held as LIMBS limbs of LIMB_BITS bits, least significant first, each an integer in
 * [0, 2^26): 0 < a < n, n odd. Neither array is changed, and the steps allocate nothing.
 *
 * Every PDA derivation asks it about one or more candidates (src/sns/curve.ts), and a bulk request
 * of 1,000 new names about ~8,000. It runs batched "posdivsteps" (division steps that keep both
 * numbers positive; docs/performance.md, Bulk resolution): each batch of 26 steps
 * is worked out on the low 32 bits of the two numbers alone, as a 2×2 matrix and the sign changes,
 * then applied to the whole numbers once (about 31 batches for 255-bit operands), where a binary
 * algorithm makes a pass over the whole numbers per bit. Operands with a common factor (0 for the
 * symbol) never settle, and the BigInt algorithm answers them. test/sns/jacobi.test.ts checks it
 * against the BigInt algorithm and Euler's criterion, test/sns/curve.test.ts the curve verdicts
 * built on it.
 */
export function jacobi(a: Float64Array, n: Float64Array): number {
  const symbol = posdivsteps(a, n);
  return symbol !== 0 ? symbol : jacobiBigInt(toBigInt(a), toBigInt(n));
}

/**
 * Steps per batch. A batch's matrix [u v; q r] has nonnegative entries with
 * u + v ≤ 2^STEPS and q + r ≤ 2^STEPS (a step's matrix has row sums of at
 * most 2; see the clearing of g below), so u·f[i] + v·g[i] plus a carry stays below 2^53 for limbs
 * below 2^26: exact in doubles. Dividing by 2^STEPS is dropping one limb.
 */
const STEPS = LIMB_BITS;
/**
 * Batches before giving up: 1,508 steps, nearly twice the median for 255-bit
 * operands (docs/performance.md, Bulk resolution). Coprime operands reach
 * f = 1 far sooner in all but vanishingly rare cases; operands with a common
 * factor never do (f ends at their gcd). Either way, the BigInt algorithm
 * then answers.
 */
const MAX_BATCHES = 58;

// The working pair: f starts as the modulus, g as the operand; both stay positive, f odd.
const f = new Float64Array(LIMBS);
const g = new Float64Array(LIMBS);

/** −1/(2k + 1) mod 256 at k: the multiple of an odd f that cancels the low 8 bits of g. */
const NEG_INVERSE_256 = Uint8Array.from({ length: 128 }, (_, k) => {
  const odd = 2 * k + 1;
  let inverse = 1;
  while ((inverse * odd) % 256 !== 1) inverse += 2;
  return (256 - inverse) % 256;
});

function toBigInt(limbs: Float64Array): bigint {
  let value = 0n;
  for (let i = LIMBS - 1; i >= 0; i--) value = (value << BIG_LIMB_BITS) | BigInt(limbs[i]!);
  return value;
}

/**
 * (a/n) by batched posdivsteps, or 0 when f has not reached 1 within MAX_BATCHES. Every step keeps
 * (g/f) times the sign in jac equal to (a/n), with f odd and both positive: g halved (sign by (2/f)),
 * f and g swapped (reciprocity), a multiple of f added to g. At f = 1 the symbol is the sign.
 */
export function posdivsteps(a: Float64Array, n: Float64Array): number {
  let len = LIMBS;
  while (len > 1 && n[len - 1] === 0) len--;
  for (let i = 0; i < LIMBS; i++) {
    f[i] = n[i]!;
    g[i] = a[i]!;
  }
  // eta = −delta, delta starting at 1; bit 0 of jac is set when the symbol has changed sign.
  let eta = -1;
  let jac = 0;
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    // The low 32 bits of f and g: a batch shifts out at most STEPS of them and still reads f mod 8
    // (for the sign of a halving), so at least 26 + 2 bits must be exact; 32 are.
    let fLow = (f[0]! + (f[1]! & 63) * RADIX) | 0;
    let gLow = (g[0]! + (g[1]! & 63) * RADIX) | 0;
    let u = 1;
    let v = 0;
    let q = 0;
    let r = 1;
    let left = STEPS;
    for (;;) {
      // Halve g while it is even, up to the steps left (the sentinel bit stops the count there).
      // Bits above the exact ones are never read, so the shifts may be signed: values stay int32.
      const sentinel = gLow | (-1 << left);
      const zeros = 31 - Math.clz32(sentinel & -sentinel);
      gLow >>= zeros;
      u <<= zeros;
      v <<= zeros;
      eta -= zeros;
      left -= zeros;
      // (2/f) = −1 exactly when f ≡ 3 or 5 (mod 8): an odd number of halvings flips the sign then.
      jac ^= zeros & ((fLow >> 1) ^ (fLow >> 2));
      if (left === 0) break;
      // When eta < 0, f and g swap (and eta is negated); by quadratic reciprocity the sign flips
      // when both are 3 mod 4. Done with masks, without a branch (no slower, and no misprediction).
      const swap = eta >> 31;
      eta = (eta ^ swap) - swap;
      jac ^= (fLow & gLow & swap) >> 1;
      let flip = (fLow ^ gLow) & swap;
      fLow ^= flip;
      gLow ^= flip;
      flip = (u ^ q) & swap;
      u ^= flip;
      q ^= flip;
      flip = (v ^ r) & swap;
      v ^= flip;
      r ^= flip;
      // Add the multiple w·f that clears the low bits of g, ((g + w·f)/f) = (g/f): at most as many
      // bits as steps are left, at most 8 (the table's width), and at most eta + 2. Posdivsteps clear
      // eta + 1 (past that f and g would swap); one bit more takes a few more steps but fewer turns of
      // this loop, which cost more than steps (docs/performance.md, Bulk resolution). Any w < 2^k
      // followed by k halvings keeps the bounds above (row sums, g below max(f, g)); that the steps
      // still reach f = 1 well within MAX_BATCHES is measured, and the BigInt algorithm backs it.
      // Products are taken mod 2^32 (Math.imul): only the low bits are exact, and only they are read.
      const over = eta + 2 - left;
      const limit = left + (over & (over >> 31));
      const mask = (-1 >>> (32 - limit)) & 255;
      const w = Math.imul(gLow, NEG_INVERSE_256[(fLow >> 1) & 127]!) & mask;
      gLow = (gLow + Math.imul(fLow, w)) | 0;
      q = (q + Math.imul(u, w)) | 0;
      r = (r + Math.imul(v, w)) | 0;
    }
    // [f, g] ← [u v; q r]·[f, g] / 2^26: the low limb of both products is 0 by construction.
    // Everything is nonnegative, so truncation (| 0, below 2^31) is the floor.
    let cf = (u * f[0]! + v * g[0]!) * INVERSE_RADIX;
    let cg = (q * f[0]! + r * g[0]!) * INVERSE_RADIX;
    for (let i = 1; i < len; i++) {
      const fi = f[i]!;
      const gi = g[i]!;
      cf += u * fi + v * gi;
      cg += q * fi + r * gi;
      const cfHigh = (cf * INVERSE_RADIX) | 0;
      const cgHigh = (cg * INVERSE_RADIX) | 0;
      f[i - 1] = cf - cfHigh * RADIX;
      g[i - 1] = cg - cgHigh * RADIX;
      cf = cfHigh;
      cg = cgHigh;
    }
    f[len - 1] = cf;
    g[len - 1] = cg;
    if (f[0] === 1) {
      let rest = 0;
      for (let i = 1; i < len; i++) rest += f[i]!;
      if (rest === 0) return jac & 1 ? -1 : 1;
    }
    if (len > 1 && f[len - 1] === 0 && g[len - 1] === 0) len--;
  }
  return 0;
}

/** The same symbol in BigInt: the answer when the steps do not settle, and the reference of the tests. */
export function jacobiBigInt(a: bigint, n: bigint): number {
  let sign = 1;
  a %= n;
  if (a < 0n) a += n;
  while (a !== 0n) {
    let twos = 0;
    while ((a & 1n) === 0n) {
      a >>= 1n;
      twos++;
    }
    if (twos & 1) {
      const r = Number(n & 7n);
      if (r === 3 || r === 5) sign = -sign;
    }
    const swapped = a;
    a = n;
    n = swapped;
    if (Number(a & 3n) === 3 && Number(n & 3n) === 3) sign = -sign;
    a %= n;
  }
  return n === 1n ? sign : 0;
}
