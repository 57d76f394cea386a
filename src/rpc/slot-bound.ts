import { MAX_SLOTS_PER_SECOND } from "../sns/sol-cutoff.js";

/**
 * Slots a claim may lead the last believed one whatever the time elapsed:
 * endpoints of one `RPC_URL` differ by their lag and commitment (tens of
 * slots), and the first slot believed may come from the one most behind.
 */
export const SLOT_LEAD_MARGIN = 150;

/** The process's monotonic clock in ms: a wall clock set back or forward moves no bound. */
const monotonicMs = () => performance.now();

/**
 * How far a slot read from an RPC answer may be believed. A `context.slot`
 * (or a signature's, or a transaction's slot) is whatever one endpoint said:
 * one plausible but false answer kept as state would put every honest node
 * "behind" for good. Slots advance at most MAX_SLOTS_PER_SECOND
 * (src/sns/sol-cutoff.ts: 20 a second, 4x the 5 a second of 200 ms
 * slots), so a slot is believed only up to the last believed one plus what
 * the time elapsed since allows, plus SLOT_LEAD_MARGIN. Nothing believed
 * yet: the first slot is believed as it is (the caller drops a floor no
 * endpoint can reach, see src/service/tokenized-index.ts).
 */
export class SlotBound {
  private anchor: { slot: number; at: number } | undefined;

  constructor(private readonly now: () => number = monotonicMs) {}

  /** Highest slot believable now; undefined while nothing is believed. */
  limit(): number | undefined {
    if (!this.anchor) return undefined;
    const elapsedMs = Math.max(0, this.now() - this.anchor.at);
    return this.anchor.slot + Math.ceil((elapsedMs * MAX_SLOTS_PER_SECOND) / 1000) + SLOT_LEAD_MARGIN;
  }

  /** Whether `slot` may be believed now (nothing is changed). */
  admits(slot: number): boolean {
    const limit = this.limit();
    return limit === undefined || slot <= limit;
  }

  /** Believes `slot` when it is admitted, and bounds later claims from it; false (nothing changed) otherwise. */
  accept(slot: number): boolean {
    if (!this.admits(slot)) return false;
    if (!this.anchor || slot > this.anchor.slot) this.anchor = { slot, at: this.now() };
    return true;
  }

  /** Starts again from `slot` believed now, or from nothing believed. */
  reset(slot?: number): void {
    this.anchor = slot === undefined || slot <= 0 ? undefined : { slot, at: this.now() };
  }
}
