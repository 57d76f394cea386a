import { SOL_TLD_CUTOFF_SLOT } from "./constants.js";

export const isPastSolCutoff = (finalizedSlot: number): boolean => finalizedSlot >= SOL_TLD_CUTOFF_SLOT;

/**
 * Upper bound on how fast slots can advance. Slot time is driven by proof of
 * history: 64 ticks per slot at a fixed hash count per tick, targeting 400 ms.
 * Leaders cannot outrun PoH, so a slot shorter than 100 ms (4x the target)
 * does not happen; we budget 10 slots/s, a generous safety factor over the
 * ~2.5 slots/s the chain actually runs at.
 */
export const MAX_SLOTS_PER_SECOND = 10;

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
