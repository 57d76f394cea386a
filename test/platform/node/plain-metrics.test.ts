import { Counter, Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { PlainCounter, PlainHistogram } from "../../../src/platform/node/plain-metrics.js";

const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Label values with the characters the exposition format escapes. */
const ROUTES = ["/resolve/:domain", "/record-v2/:domain/:record", 'a"quoted\\back\nslash', "unmatched"];

/** A fixed pseudo-random sequence, the same for both sides. */
function* draws(count: number): Generator<number> {
  let seed = 12345;
  for (let i = 0; i < count; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    yield seed / 2 ** 31;
  }
}

describe("plain counters and histograms", () => {
  it("render the same exposition text as prom-client's Counter and Histogram given the same reports", async () => {
    const theirs = new Registry();
    const ours = new Registry();
    const counter = new Counter({ name: "t_requests_total", help: "requests", labelNames: ["route", "status"], registers: [theirs] });
    const histogram = new Histogram({ name: "t_seconds", help: "seconds", labelNames: ["route"], buckets: BUCKETS, registers: [theirs] });
    const unlabelled = new Histogram({ name: "t_batch", help: "per batch", buckets: [1, 2, 5], registers: [theirs] });
    const fixed = new Counter({ name: "t_cache_total", help: "lookups", labelNames: ["result"], registers: [theirs] });
    const plainCounter = new PlainCounter({ name: "t_requests_total", help: "requests", registers: [ours] });
    const plainHistogram = new PlainHistogram({ name: "t_seconds", help: "seconds", registers: [ours] }, BUCKETS);
    const plainUnlabelled = new PlainHistogram({ name: "t_batch", help: "per batch", registers: [ours] }, [1, 2, 5]);
    const plainFixed = new PlainCounter({ name: "t_cache_total", help: "lookups", registers: [ours] });

    // Series shown from the first scrape, at 0.
    fixed.labels("hit").inc(0);
    fixed.labels("miss").inc(0);
    const hit = plainFixed.child({ result: "hit" });
    plainFixed.child({ result: "miss" });
    const batches = plainUnlabelled.child({});
    expect(await ours.metrics()).toBe(await theirs.metrics());

    const counters = new Map<string, ReturnType<PlainCounter["child"]>>();
    const series = new Map<string, ReturnType<PlainHistogram["child"]>>();
    const sequence = [...draws(6000)];
    for (let i = 0; i + 2 < sequence.length; i += 3) {
      const route = ROUTES[Math.floor(sequence[i]! * ROUTES.length)]!;
      const status = String([200, 400, 404, 502][Math.floor(sequence[i + 1]! * 4)]);
      // Values on, between and past the bounds.
      const seconds = sequence[i + 2]! ** 4 * 20;
      counter.labels(route, status).inc();
      histogram.labels(route).observe(seconds);
      unlabelled.observe(Math.floor(seconds));
      if (seconds < 1) fixed.labels("hit").inc();
      const key = `${route} ${status}`;
      let child = counters.get(key);
      if (!child) counters.set(key, (child = plainCounter.child({ route, status })));
      child.value++;
      let timed = series.get(route);
      if (!timed) series.set(route, (timed = plainHistogram.child({ route })));
      plainHistogram.observe(timed, seconds);
      plainUnlabelled.observe(batches, Math.floor(seconds));
      if (seconds < 1) hit.value++;
    }
    const text = await ours.metrics();
    expect(text).toContain('t_seconds_bucket{le="+Inf",route="a\\"quoted\\\\back\\nslash"}');
    expect(text).toBe(await theirs.metrics());
  });
});
