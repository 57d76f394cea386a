import { SOL_TLD_CUTOFF_SLOT } from "./constants.js";

export const isPastSolCutoff = (finalizedSlot: number): boolean => finalizedSlot >= SOL_TLD_CUTOFF_SLOT;

/**
 * Upper bound on how fast slots can advance. Slot time is driven by proof of
 * history: 64 ticks per slot at a fixed hash count per tick, and leaders
 * cannot outrun PoH. The cluster has shortened its target slot in steps
 * (to 250 ms, then 200 ms), so the bound is 4x the shortest target it has
 * scheduled: 20 slots/s, no slot shorter than 50 ms. Never a slot time to
 * convert with, only a ceiling that stays safe if slots get faster.
 */
export const MAX_SLOTS_PER_SECOND = 20;

/**
 * How long a finalized slot observed now can be reused to decide "before the
 * cutoff": until even the fastest chain could have reached the cutoff.
 * Zero when the slot is already at or past it.
 */
export function safeSlotReuseMs(finalizedSlot: number): number {
  const slotsLeft = SOL_TLD_CUTOFF_SLOT - finalizedSlot;
  if (slotsLeft <= 0) return 0;
  // The slot at observation + elapsed * rate must stay strictly below the cutoff.
  return Math.floor(((slotsLeft - 1) * 1000) / MAX_SLOTS_PER_SECOND);
}
