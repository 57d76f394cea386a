import { describe, expect, it } from "vitest";
import { SLOT_LEAD_MARGIN, SlotBound } from "../../src/rpc/slot-bound.js";
import { MAX_SLOTS_PER_SECOND } from "../../src/sns/sol-cutoff.js";

describe("SlotBound", () => {
  it("believes the first slot, then only what the time elapsed allows", () => {
    let now = 0;
    const bound = new SlotBound(() => now);
    expect(bound.limit()).toBeUndefined();
    expect(bound.accept(1_000)).toBe(true);
    expect(bound.admits(1_000 + SLOT_LEAD_MARGIN)).toBe(true);
    expect(bound.accept(1_000 + SLOT_LEAD_MARGIN + 1)).toBe(false);
    expect(bound.accept(1_000_000)).toBe(false);
    // A minute later: up to MAX_SLOTS_PER_SECOND a second more.
    now = 60_000;
    expect(bound.limit()).toBe(1_000 + 60 * MAX_SLOTS_PER_SECOND + SLOT_LEAD_MARGIN);
    expect(bound.accept(1_000_000)).toBe(false);
    expect(bound.accept(1_000 + 60 * MAX_SLOTS_PER_SECOND)).toBe(true);
  });

  it("admits 200 ms slots (5 a second) with room to spare, for hours", () => {
    let now = 0;
    const bound = new SlotBound(() => now);
    let slot = 300_000_000;
    bound.accept(slot);
    for (let second = 1; second <= 4 * 3600; second++) {
      now = second * 1000;
      slot += 5;
      if (second % 60 === 0) expect(bound.accept(slot)).toBe(true);
    }
  });

  it("grants the margin once: claims that each lead by it do not add it up", () => {
    let now = 0;
    const bound = new SlotBound(() => now);
    bound.accept(1_000);
    expect(bound.accept(1_000 + SLOT_LEAD_MARGIN)).toBe(true);
    expect(bound.accept(1_000 + 2 * SLOT_LEAD_MARGIN)).toBe(false);
    // A lie growing by the margin on every answer, ten answers a second for a minute, gains the margin
    // once over what the time allows.
    let lie = 1_000 + SLOT_LEAD_MARGIN;
    for (let answer = 1; answer <= 600; answer++) {
      now = answer * 100;
      if (bound.accept(lie + SLOT_LEAD_MARGIN)) lie += SLOT_LEAD_MARGIN;
    }
    expect(lie).toBeLessThanOrEqual(1_000 + 60 * MAX_SLOTS_PER_SECOND + SLOT_LEAD_MARGIN);
    expect(bound.limit()).toBeLessThanOrEqual(1_000 + 60 * MAX_SLOTS_PER_SECOND + SLOT_LEAD_MARGIN);
  });

  it("never goes back, and a lower slot moves nothing", () => {
    let now = 0;
    const bound = new SlotBound(() => now);
    bound.accept(5_000);
    now = 1000;
    expect(bound.accept(4_000)).toBe(true);
    expect(bound.limit()).toBe(5_000 + MAX_SLOTS_PER_SECOND + SLOT_LEAD_MARGIN);
  });

  it("starts again from a slot, or from nothing, when reset", () => {
    const bound = new SlotBound(() => 0);
    bound.accept(1_000_000);
    bound.reset(500);
    expect(bound.limit()).toBe(500 + SLOT_LEAD_MARGIN);
    bound.reset();
    expect(bound.accept(9_000_000)).toBe(true);
  });
});
