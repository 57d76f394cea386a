import { describe, expect, it } from "vitest";
import { SOL_TLD_CUTOFF_SLOT } from "../../src/sns/constants.js";
import { MAX_SLOTS_PER_SECOND, isPastSolCutoff, safeSlotReuseMs } from "../../src/sns/sol-cutoff.js";

describe(".sol cutoff rule", () => {
  it("pauses at and after the cutoff slot", () => {
    expect(isPastSolCutoff(SOL_TLD_CUTOFF_SLOT - 1)).toBe(false);
    expect(isPastSolCutoff(SOL_TLD_CUTOFF_SLOT)).toBe(true);
    expect(isPastSolCutoff(SOL_TLD_CUTOFF_SLOT + 1)).toBe(true);
  });

  it("reuses a slot only while the fastest chain could not reach the cutoff", () => {
    expect(safeSlotReuseMs(SOL_TLD_CUTOFF_SLOT)).toBe(0);
    expect(safeSlotReuseMs(SOL_TLD_CUTOFF_SLOT - 1)).toBe(0);
    // 20 slots a second at most (4x the cluster's 200 ms target; it was 10 when slots targeted 400 ms).
    expect(MAX_SLOTS_PER_SECOND).toBe(20);
    expect(safeSlotReuseMs(SOL_TLD_CUTOFF_SLOT - 21)).toBe(1000);
    expect(safeSlotReuseMs(SOL_TLD_CUTOFF_SLOT - 11)).toBe(500);
    for (const slotsLeft of [2, 7, 100, 123_457]) {
      const reuse = safeSlotReuseMs(SOL_TLD_CUTOFF_SLOT - slotsLeft);
      const fastestReach = SOL_TLD_CUTOFF_SLOT - slotsLeft + (reuse / 1000) * MAX_SLOTS_PER_SECOND;
      expect(fastestReach).toBeLessThan(SOL_TLD_CUTOFF_SLOT);
    }
  });
});
