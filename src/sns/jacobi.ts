/**
 * The Jacobi symbol (a/n) for odd n > 0 (for prime n: 1 when a is a nonzero
 * square mod n, −1 when not, 0 when n divides a), by the binary algorithm on
 * 30-bit limbs held in two preallocated arrays.
 *
 * Every PDA derivation asks it about one or more candidates, and a bulk
 * request of 1,000 new names about ~8,000: done in BigInt, each step of the
 * loop allocates several 255-bit numbers (~25 µs and much garbage a symbol);
 * here the loop allocates nothing and only the conversion of the operands
 * touches BigInt. test/sns/jacobi.test.ts checks it against the BigInt
 * algorithm, test/sns/curve.test.ts the curve verdicts built on it.
 */
export function jacobi(a: bigint, n: bigint): number {
  if (n <= 0n || (n & 1n) === 0n) throw new RangeError("the Jacobi symbol needs an odd positive modulus");
  if (n > MAX_OPERAND) return jacobiBigInt(a, n);
  a %= n;
  if (a < 0n) a += n;
  load(left, a);
  load(right, n);
  return binaryJacobi();
}

const LIMB_BITS = 30;
const MASK = (1 << LIMB_BITS) - 1;
/** 9 limbs: 270 bits, enough for field elements of 2^255 − 19. */
const LIMBS = 9;
/** The widest modulus the limbs hold; a wider one takes the BigInt algorithm. */
export const MAX_OPERAND = (1n << BigInt(LIMB_BITS * LIMBS)) - 1n;
const BIG_MASK = BigInt(MASK);
const BIG_LIMB_BITS = BigInt(LIMB_BITS);

// One limb more than used: a shift reads the limb above the top one, which stays 0.
const left = new Int32Array(LIMBS + 1);
const right = new Int32Array(LIMBS + 1);

function load(limbs: Int32Array, value: bigint): void {
  for (let i = 0; i < LIMBS; i++) {
    limbs[i] = Number(value & BIG_MASK);
    value >>= BIG_LIMB_BITS;
  }
}

/** (left/right) for right odd, left < right; both arrays are consumed. */
function binaryJacobi(): number {
  let a = left;
  let n = right;
  let len = LIMBS;
  let sign = 1;
  for (;;) {
    while (len > 1 && a[len - 1] === 0 && n[len - 1] === 0) len--;
    // a = 0: n is gcd(a, n), and the symbol is 0 unless it is 1.
    let top = len - 1;
    while (top >= 0 && a[top] === 0) top--;
    if (top < 0) return len === 1 && n[0] === 1 ? sign : 0;
    // Factors of two come off a whole limb (an even count: no sign change) or up to 29 bits at a time.
    while (a[0] === 0) {
      for (let i = 0; i < len; i++) a[i] = a[i + 1]!;
    }
    const low = a[0]!;
    const twos = 31 - Math.clz32(low & -low);
    if (twos !== 0) {
      const back = LIMB_BITS - twos;
      for (let i = 0; i < len; i++) a[i] = (a[i]! >>> twos) | ((a[i + 1]! << back) & MASK);
      // (2/n) = −1 exactly when n ≡ 3 or 5 (mod 8).
      if (twos & 1) {
        const r = n[0]! & 7;
        if (r === 3 || r === 5) sign = -sign;
      }
    }
    // Both odd now: keep a ≥ n, swapping by quadratic reciprocity (the sign flips when both are 3 mod 4).
    if (less(a, n, len)) {
      const swapped = a;
      a = n;
      n = swapped;
      if ((a[0]! & 3) === 3 && (n[0]! & 3) === 3) sign = -sign;
    }
    // (a/n) = ((a − n)/n); a − n is even (or 0).
    let borrow = 0;
    for (let i = 0; i < len; i++) {
      const d = a[i]! - n[i]! - borrow;
      borrow = (d >>> 31) & 1;
      a[i] = d & MASK;
    }
  }
}

function less(a: Int32Array, b: Int32Array, len: number): boolean {
  for (let i = len - 1; i >= 0; i--) {
    if (a[i] !== b[i]) return a[i]! < b[i]!;
  }
  return false;
}

/** The same symbol in BigInt, for moduli wider than the limbs hold. */
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
