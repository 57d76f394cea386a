import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { nodeSettlePacing } from "../../../src/platform/node/settle-pacing.js";

/** Keeps the event loop busy: a synchronous stretch longer than the 100 ms window. */
function busyFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

const SLICE = 32;

describe("nodeSettlePacing: when a batch reply's reads are settled a slice at a time", () => {
  it("is off with a slice of 0", () => {
    expect(nodeSettlePacing(0)).toBeUndefined();
  });

  it("on a busy loop, paces the replies of an endpoint whose quickest reply took 10 ms or more, and only its", () => {
    const pacingOf = nodeSettlePacing(SLICE)!;
    const far = pacingOf();
    const near = pacingOf();
    far.slice(25);
    near.slice(1);
    busyFor(120);
    // The windows close: the loop was busy, one endpoint far, the other near.
    expect(far.slice(30)).toBe(SLICE);
    expect(near.slice(2)).toBe(0);
    busyFor(120);
    // A window whose replies all failed keeps the verdict: a failure says nothing of the distance.
    expect(far.slice(undefined)).toBe(SLICE);
    expect(near.slice(undefined)).toBe(0);
    busyFor(120);
    // A quick reply closing the far endpoint's window makes it near, though its next replies are slow.
    expect(far.slice(3)).toBe(0);
    expect(far.slice(40)).toBe(0);
  });

  it("judges a reply after a quiet spell of its endpoint by itself, not by an old quick one", () => {
    const far = nodeSettlePacing(SLICE)!();
    far.slice(1);
    busyFor(250);
    expect(far.slice(30)).toBe(SLICE);
  });

  it("paces every endpoint's replies while the loop has idle time", async () => {
    const pacingOf = nodeSettlePacing(SLICE)!;
    const near = pacingOf();
    near.slice(1);
    busyFor(120);
    expect(near.slice(1)).toBe(0);
    await sleep(150);
    expect(near.slice(1)).toBe(SLICE);
  });
});
