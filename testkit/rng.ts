/*
 * The one seeded PRNG of the test and bench generators. A seed must always
 * yield the same sequence: bench results and the resolve differential's
 * fixed seed are only comparable across runs while it does.
 */

export interface Rng {
  readonly seed: number;
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max]. */
  int(min: number, max: number): number;
  bool(probability?: number): boolean;
  pick<T>(items: readonly T[]): T;
  bytes(length: number): Uint8Array;
  shuffle<T>(items: readonly T[]): T[];
}

/** sfc32 seeded through splitmix32: fast, 128-bit state, identical on every platform. */
export function createRng(seed: number): Rng {
  let mix = seed >>> 0;
  const splitmix = () => {
    mix = (mix + 0x9e3779b9) >>> 0;
    let z = mix;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = splitmix();
  let b = splitmix();
  let c = splitmix();
  let d = splitmix();
  const u32 = () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 12; i++) u32();
  const next = () => u32() / 4294967296;
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    seed: seed >>> 0,
    next,
    int,
    bool: (probability = 0.5) => next() < probability,
    pick<T>(items: readonly T[]): T {
      if (items.length === 0) throw new RangeError("pick from an empty list");
      return items[int(0, items.length - 1)]!;
    },
    bytes(length: number) {
      const out = new Uint8Array(length);
      for (let i = 0; i < length; i++) out[i] = u32() & 0xff;
      return out;
    },
    shuffle<T>(items: readonly T[]): T[] {
      const out = items.slice();
      for (let i = out.length - 1; i > 0; i--) {
        const j = int(0, i);
        [out[i], out[j]] = [out[j]!, out[i]!];
      }
      return out;
    },
  };
}

/** A new 32-bit seed from the OS, for runs that should explore fresh states. */
export function freshSeed(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0]!;
}

/** The seed named by environment variable `name` (to replay a failure), else a fresh one. */
export function seedFromEnv(name: string): number {
  const seed = Number.parseInt(process.env[name] ?? "", 10);
  return Number.isFinite(seed) ? seed : freshSeed();
}
