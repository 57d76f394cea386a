/** Lets the event loop run once; resolves on a later turn. */
export type NextTurn = () => Promise<void>;

/**
 * Longest one slice of a bulk request's work (1,000 names: validating,
 * deriving, starting, settling, building the answer) holds the event loop
 * before other requests get a turn. Short enough that a GET arriving
 * meanwhile waits little; long enough that a bulk request yields only a
 * few times per phase.
 */
export const BULK_SLICE_MS = 8;

/**
 * The clock of work spread over turns of the event loop: `spent()` after each
 * piece of work. Work that ends within its first slice never waits, so small
 * lists cost one clock read per item.
 */
export class TimeSlices {
  private started = performance.now();

  constructor(
    private readonly nextTurn: NextTurn,
    private readonly sliceMs = BULK_SLICE_MS,
  ) {}

  /** Undefined while this slice has time left; else a promise that resolves on a later turn, a new slice begun. */
  spent(): Promise<void> | undefined {
    if (performance.now() - this.started < this.sliceMs) return undefined;
    return this.nextTurn().then(() => {
      this.started = performance.now();
    });
  }
}

/** `work` applied to each item in order, BULK_SLICE_MS of it per turn of the event loop. */
export async function mapInTimeSlices<T, R>(
  items: readonly T[],
  work: (item: T) => R,
  nextTurn: NextTurn,
): Promise<R[]> {
  const slices = new TimeSlices(nextTurn);
  const results = new Array<R>(items.length);
  for (let i = 0; i < items.length; i++) {
    results[i] = work(items[i]!);
    const turn = slices.spent();
    if (turn) await turn;
  }
  return results;
}
