import type { YieldToLoop } from "./request-view.js";

/** Lets the event loop run once; resolves on a later turn. */
export type NextTurn = YieldToLoop;

/**
 * Longest one slice of a bulk request's work (1,000 names: deriving their
 * keys, starting their resolutions, handing them their settled reads) holds
 * the event loop before other requests get a turn. A GET needs a few turns
 * (its request read, its reads sent, their reply read), and each turn that
 * also runs a slice adds the slice to its wait: with slices of 8 ms, GETs
 * beside bulk requests waited 4–5 times as long as alone, with 2 ms about
 * twice, with 1 ms at most twice and more of them answered meanwhile
 * (docs/performance.md, Bulk resolution). On Node a turn (setImmediate)
 * costs microseconds, so a bulk request pays no measurable CPU or time for
 * yielding this often. Where turns are timers (the Workers build's
 * `yieldByTimer`), a slice of 1 ms of work takes ~2 ms under a clock that
 * runs while code does (workerd run locally); deployed, Workers' clock
 * moves only at I/O, so a slice does not end within this work, and it runs
 * in one turn, within the isolate's CPU limit. The clock is each request's
 * own: bulk requests running at once each take a slice in a turn.
 */
export const BULK_SLICE_MS = 1;

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
    // No turn given away after the last item: the caller goes on with its own next step.
    const turn = i + 1 < items.length ? slices.spent() : undefined;
    if (turn) await turn;
  }
  return results;
}
