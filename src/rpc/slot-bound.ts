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

  /**
   * Believes `slot` when it is admitted; false (nothing changed) otherwise.
   * Later claims are bounded from the highest slot the time elapsed can
   * justify, never from the claim itself: the margin is a spread between
   * endpoints granted once, so claims that each lead by the margin cannot
   * add it up (the anchor keeps fractions of a slot for the same reason).
   */
  accept(slot: number): boolean {
    if (!this.admits(slot)) return false;
    const at = this.now();
    if (!this.anchor) this.anchor = { slot, at };
    else if (slot > this.anchor.slot) {
      const justified = this.anchor.slot + (Math.max(0, at - this.anchor.at) * MAX_SLOTS_PER_SECOND) / 1000;
      this.anchor = { slot: Math.min(slot, justified), at };
    }
    return true;
  }

  /** Starts again from `slot` believed now, or from nothing believed. */
  reset(slot?: number): void {
    this.anchor = slot === undefined || slot <= 0 ? undefined : { slot, at: this.now() };
  }
}
