import { afterEach, describe, expect, it, vi } from "vitest";
import { OverloadedError } from "../../src/rpc/errors.js";
import { Bulkhead, SHARE } from "../../src/service/bulkhead.js";

const refusal = () => new OverloadedError("full");

/** A task that runs until `release()` is called, recording when it started. */
function gate(log: string[], name: string) {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  return { task: async () => (log.push(name), await done, name), release };
}

describe("Bulkhead", () => {
  it("runs work while its units fit, then in arrival order as room is made", async () => {
    const bulkhead = new Bulkhead("t", { maxUnits: 10, maxQueuedUnits: 100 }, refusal);
    const log: string[] = [];
    const a = gate(log, "a");
    const b = gate(log, "b");
    const c = gate(log, "c");
    const d = gate(log, "d");
    const runs = [bulkhead.run(6, a.task), bulkhead.run(4, b.task), bulkhead.run(5, c.task), bulkhead.run(1, d.task)];
    await Promise.resolve();
    expect(log).toEqual(["a", "b"]);
    expect(bulkhead.load).toEqual({ running: 10, queued: 6 });
    // d would fit after b, but c arrived first: waiting work keeps its order.
    b.release();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(log).toEqual(["a", "b"]);
    a.release();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(log).toEqual(["a", "b", "c", "d"]);
    c.release();
    d.release();
    expect(await Promise.all(runs)).toEqual(["a", "b", "c", "d"]);
    expect(bulkhead.load).toEqual({ running: 0, queued: 0 });
  });

  it("refuses work at once past what may wait, and a failing task gives its units back", async () => {
    const bulkhead = new Bulkhead("t", { maxUnits: 2, maxQueuedUnits: 3 }, refusal);
    const log: string[] = [];
    const a = gate(log, "a");
    const running = bulkhead.run(2, a.task);
    const waiting = bulkhead.run(3, async () => "waited");
    await expect(bulkhead.run(1, async () => "no room")).rejects.toBeInstanceOf(OverloadedError);
    a.release();
    expect(await Promise.all([running, waiting])).toEqual(["a", "waited"]);
    await expect(bulkhead.run(1, async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(bulkhead.load).toEqual({ running: 0, queued: 0 });
  });

  it("refuses work that waited past its longest wait, and starts what waits behind it", async () => {
    const bulkhead = new Bulkhead("t", { maxUnits: 2, maxQueuedUnits: 100, maxWaitMs: 50 }, refusal);
    const log: string[] = [];
    const a = gate(log, "a");
    const running = bulkhead.run(1, a.task);
    // Too large to start beside a; small fits beside a but waits its turn behind big.
    const big = bulkhead.run(2, async () => "big");
    const small = bulkhead.run(1, async () => "small");
    const started = performance.now();
    await expect(big).rejects.toBeInstanceOf(OverloadedError);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(await small).toBe("small");
    expect(bulkhead.load).toEqual({ running: 1, queued: 0 });
    a.release();
    expect(await running).toBe("a");
    expect(bulkhead.load).toEqual({ running: 0, queued: 0 });
  });

  it("runs work larger than its limit alone rather than never", async () => {
    const bulkhead = new Bulkhead("t", { maxUnits: 5, maxQueuedUnits: 100 }, refusal);
    expect(await bulkhead.run(50, async () => "alone")).toBe("alone");
  });

  describe("fair shares: one client's burst does not hold others back", () => {
    it("starts another client's work ahead of the surplus of a client past its share", async () => {
      const bulkhead = new Bulkhead("t", { maxUnits: 4, maxQueuedUnits: 400 }, refusal);
      const log: string[] = [];
      const hog = Array.from({ length: 12 }, (_, i) => gate(log, `hog${i}`));
      const hogRuns = hog.map((work) => bulkhead.run(1, work.task, "hog"));
      await Promise.resolve();
      // Alone, the hog fills every place: none is left empty.
      expect(log).toEqual(["hog0", "hog1", "hog2", "hog3"]);
      expect(bulkhead.loadOf("hog")).toEqual({ running: 4, queued: 8 });
      const other = gate(log, "other");
      const otherRun = bulkhead.run(1, other.task, "other");
      // The first place given back goes to the other client, not to the hog's next in line.
      hog[0]!.release();
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(log.slice(4)).toEqual(["other"]);
      other.release();
      expect(await otherRun).toBe("other");
      for (const work of hog) work.release();
      await Promise.all(hogRuns);
      expect(bulkhead.load).toEqual({ running: 0, queued: 0 });
      expect(bulkhead.loadOf("hog")).toEqual({ running: 0, queued: 0 });
    });

    it(`a client alone may fill the line; once it is full, another client's work takes the place of its newest surplus past its share (${SHARE})`, async () => {
      const bulkhead = new Bulkhead("t", { maxUnits: 1, maxQueuedUnits: 8 }, refusal);
      const log: string[] = [];
      const first = gate(log, "first");
      const running = bulkhead.run(1, first.task, "hog");
      const queued = Array.from({ length: 8 }, (_, i) =>
        bulkhead.run(1, async () => `q${i}`, "hog").catch((error: unknown) => error),
      );
      expect(bulkhead.loadOf("hog")).toEqual({ running: 1, queued: 8 });
      // The line is full: the hog's own next work is refused, another client's is let in.
      await expect(bulkhead.run(1, async () => "past the line", "hog")).rejects.toBeInstanceOf(OverloadedError);
      const others = Array.from({ length: 2 }, (_, i) => bulkhead.run(1, async () => `other${i}`, "other"));
      expect(bulkhead.loadOf("hog")).toEqual({ running: 1, queued: 6 });
      expect(bulkhead.loadOf("other")).toEqual({ running: 0, queued: 2 });
      // Past its share of the line (2 of 8), another client's work is refused too when the line is full.
      await expect(bulkhead.run(1, async () => "other past its share", "other")).rejects.toBeInstanceOf(
        OverloadedError,
      );
      first.release();
      const settled = await Promise.all([running, ...queued, ...others]);
      expect(settled.slice(0, 7)).toEqual(["first", "q0", "q1", "q2", "q3", "q4", "q5"]);
      // The hog's newest two were refused to make room.
      for (const refused of settled.slice(7, 9)) expect(refused).toBeInstanceOf(OverloadedError);
      expect(settled.slice(9)).toEqual(["other0", "other1"]);
      expect(bulkhead.load).toEqual({ running: 0, queued: 0 });
    });
  });

  describe("with a lease (Workers: a cancelled request never runs its finally)", () => {
    afterEach(() => vi.useRealTimers());

    it("takes back the units of work that outlived its lease, once, and starts who waits", async () => {
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(0);
      const bulkhead = new Bulkhead("t", { maxUnits: 2, maxQueuedUnits: 10, leaseMs: 1_000 }, refusal);
      const log: string[] = [];
      // A request the runtime cancelled: its task never settles while the lease runs.
      const cancelled = gate(log, "cancelled");
      const abandoned = bulkhead.run(2, cancelled.task);
      const b = gate(log, "b");
      const waiting = bulkhead.run(1, b.task);
      await Promise.resolve();
      expect(bulkhead.load).toEqual({ running: 2, queued: 1 });
      // Within the lease, nothing is taken back.
      vi.setSystemTime(1_000);
      const early = gate(log, "early");
      const queuedEarly = bulkhead.run(1, early.task);
      await Promise.resolve();
      expect(log).toEqual(["cancelled"]);
      // Past it, the next arrival takes the units back: who waited starts, in order.
      vi.setSystemTime(1_001);
      const c = gate(log, "c");
      const late = bulkhead.run(1, c.task);
      await new Promise((resolve) => setTimeout(resolve, 0));
      // b was started first; its task begins a turn later than early's, which needed no wait.
      expect(log.slice(1).sort()).toEqual(["b", "early"]);
      expect(bulkhead.load).toEqual({ running: 2, queued: 1 });
      // The abandoned work finishing after all gives nothing back twice.
      cancelled.release();
      await abandoned;
      expect(bulkhead.load).toEqual({ running: 2, queued: 1 });
      b.release();
      early.release();
      await Promise.all([waiting, queuedEarly]);
      c.release();
      expect(await late).toBe("c");
      expect(bulkhead.load).toEqual({ running: 0, queued: 0 });
    });

    it("without a lease, work holds its units until it gives them back (Node)", async () => {
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(0);
      const bulkhead = new Bulkhead("t", { maxUnits: 1, maxQueuedUnits: 10 }, refusal);
      const log: string[] = [];
      const slow = gate(log, "slow");
      const first = bulkhead.run(1, slow.task);
      vi.setSystemTime(3_600_000);
      const next = bulkhead.run(1, async () => "next");
      await Promise.resolve();
      expect(bulkhead.load).toEqual({ running: 1, queued: 1 });
      slow.release();
      expect(await Promise.all([first, next])).toEqual(["slow", "next"]);
    });
  });
});
