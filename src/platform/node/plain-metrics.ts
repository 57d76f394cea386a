import type { Registry } from "prom-client";

/**
 * Counters and histograms counted in plain numbers on the request path and
 * handed to a prom-client registry only when it is scraped.
 *
 * prom-client's own `inc` and `observe` build a label object and hash it
 * into a string on every call, even through a bound label child (~0.4 KB
 * and a few µs per answer); here a label child is a plain record bumped in
 * place. The registry renders these metrics itself, from the same
 * `{ name, help, type, values }` its Counter and Histogram give it, in the
 * same order, so `/metrics` reads the same.
 */

type Labels = Readonly<Record<string, string>>;

/** One label set of a counter, as prom-client keeps it: `value` is what the registry prints. */
export interface CounterChild {
  value: number;
  readonly labels: Labels;
}

/** One label set of a histogram: counts per bucket (not yet cumulative), and the +Inf count in `count`. */
export interface HistogramChild {
  readonly labels: Labels;
  readonly buckets: number[];
  sum: number;
  count: number;
}

interface MetricValue {
  readonly value: number;
  readonly labels: Record<string, string | number>;
  readonly sharedLabels?: Labels;
  readonly metricName?: string;
}

interface MetricData {
  readonly name: string;
  readonly help: string;
  readonly type: "counter" | "histogram";
  readonly values: MetricValue[];
  readonly aggregator: "sum";
}

interface MetricConfig {
  readonly name: string;
  readonly help: string;
  readonly registers: readonly Registry[];
}

abstract class PlainMetric {
  readonly name: string;
  readonly help: string;
  readonly aggregator = "sum" as const;

  constructor(config: MetricConfig) {
    this.name = config.name;
    this.help = config.help;
    // The registry takes any object with a name and `get()`: it prints what `get` returns.
    for (const registry of config.registers) registry.registerMetric(this as never);
  }

  abstract get(): MetricData;
}

/** A counter whose label sets are children created once (`child`) and incremented as `child.value++`. */
export class PlainCounter extends PlainMetric {
  readonly type = "counter" as const;
  private readonly children: CounterChild[] = [];

  /** A new label set, printed from the next scrape on (at 0 until counted), after those created before it. */
  child(labels: Labels): CounterChild {
    const child: CounterChild = { value: 0, labels };
    this.children.push(child);
    return child;
  }

  get(): MetricData {
    const values = this.children.map(({ value, labels }) => ({ value, labels }));
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }
}

/** A histogram laid out as prom-client's: per label set its buckets (`le`), then +Inf, `_sum`, `_count`. */
export class PlainHistogram extends PlainMetric {
  readonly type = "histogram" as const;
  private readonly children: HistogramChild[] = [];

  constructor(
    config: MetricConfig,
    private readonly upperBounds: readonly number[],
  ) {
    super(config);
  }

  child(labels: Labels): HistogramChild {
    const child: HistogramChild = { labels, buckets: this.upperBounds.map(() => 0), sum: 0, count: 0 };
    this.children.push(child);
    return child;
  }

  /** Counts `value` (finite) in the first bucket whose bound is at least it, or in +Inf only. */
  observe(child: HistogramChild, value: number): void {
    const bounds = this.upperBounds;
    for (let i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]!) {
        child.buckets[i]!++;
        break;
      }
    }
    child.sum += value;
    child.count++;
  }

  /** What the registry prints: the label set's labels follow `le` (prom-client's shared labels). */
  getForPromString(): MetricData {
    const bucketName = `${this.name}_bucket`;
    const values: MetricValue[] = [];
    for (const { labels, buckets, sum, count } of this.children) {
      let cumulative = 0;
      for (let i = 0; i < buckets.length; i++) {
        cumulative += buckets[i]!;
        values.push({
          labels: { le: this.upperBounds[i]! },
          sharedLabels: labels,
          value: cumulative,
          metricName: bucketName,
        });
      }
      values.push({ labels: { le: "+Inf" }, sharedLabels: labels, value: count, metricName: bucketName });
      values.push({ labels: {}, sharedLabels: labels, value: sum, metricName: `${this.name}_sum` });
      values.push({ labels: {}, sharedLabels: labels, value: count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** As prom-client's `get` (the registry's JSON): the shared labels merged into each value's own. */
  get(): MetricData {
    const data = this.getForPromString();
    const values = data.values.map(({ labels, sharedLabels, ...rest }) => ({
      ...rest,
      labels: { ...labels, ...sharedLabels },
    }));
    return { ...data, values };
  }
}
