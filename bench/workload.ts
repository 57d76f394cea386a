import type { WorkingSetEntry } from "./working-set.js";

export interface Workload {
  /** Every distinct path the sequence can produce, for the correctness pre-pass. */
  readonly paths: readonly string[];
  /** Request order: Zipf-distributed over the working set, `.sns` and `.sol` mixed. */
  readonly sequence: readonly string[];
  /** Path → branch label, for reports. */
  readonly branchOf: ReadonlyMap<string, string>;
  readonly entryOf: ReadonlyMap<string, WorkingSetEntry>;
  /** Share of requests that go to the 10 hottest names. */
  readonly top10Share: number;
  /** Share of requests per branch. */
  readonly branchShare: Record<string, number>;
}

export interface WorkloadOptions {
  readonly length: number;
  /** Zipf exponent: weight of rank r is 1 / r^s. */
  readonly exponent: number;
  /** Share of `.sol` requests among names asked with either suffix. */
  readonly solShare: number;
}

/** Names carry unicode, emoji and URL-special characters; both servers decode the path parameter alike (Hono). */
export const pathOf = (name: string, suffix: string): string => `/resolve/${encodeURIComponent(name + suffix)}`;

/**
 * Ranks are assigned by a seeded shuffle, so which branches are hot depends
 * on the seed, not on the order the generator emitted them in.
 */
export function buildWorkload(
  entries: readonly WorkingSetEntry[],
  rng: () => number,
  options: WorkloadOptions,
): Workload {
  const ranked = [...entries];
  for (let i = ranked.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [ranked[i], ranked[j]] = [ranked[j]!, ranked[i]!];
  }
  const cumulative: number[] = [];
  let total = 0;
  for (let rank = 1; rank <= ranked.length; rank++) {
    total += 1 / rank ** options.exponent;
    cumulative.push(total);
  }
  const draw = (): number => {
    const target = rng() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cumulative[mid]! < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };

  const branchOf = new Map<string, string>();
  const entryOf = new Map<string, WorkingSetEntry>();
  for (const entry of entries) {
    for (const suffix of entry.suffixes) {
      branchOf.set(pathOf(entry.name, suffix), entry.branch);
      entryOf.set(pathOf(entry.name, suffix), entry);
    }
  }

  const sequence: string[] = [];
  let top10 = 0;
  for (let i = 0; i < options.length; i++) {
    const rank = draw();
    if (rank < 10) top10++;
    const entry = ranked[rank]!;
    const suffix = entry.suffixes.length === 1 ? entry.suffixes[0]! : rng() < options.solShare ? ".sol" : ".sns";
    sequence.push(pathOf(entry.name, suffix));
  }
  const branchShare: Record<string, number> = {};
  for (const path of sequence) {
    const branch = branchOf.get(path)!;
    branchShare[branch] = (branchShare[branch] ?? 0) + 1 / sequence.length;
  }
  return { paths: [...branchOf.keys()], sequence, branchOf, entryOf, top10Share: top10 / options.length, branchShare };
}
