import { type CallMatch, matchesCall } from "./call-match.js";

export interface LocalnetStats {
  /** HTTP requests received, whatever their path or outcome; a batch counts once. */
  readonly httpRequests: number;
  /** JSON-RPC calls received; each call of a batch counts. */
  readonly calls: number;
  /** Calls by method name, including unknown methods. */
  readonly methods: Readonly<Record<string, number>>;
  /**
   * Sequential round trips: the longest chain of HTTP requests each of which
   * arrived after the one before it was answered. Requests sent together
   * count once; a request sent after reading an answer counts one more.
   * An upper bound on what a client's dependencies required.
   */
  readonly roundTrips: number;
}

/** Calls matching one CallMatch, counted from when it was asked for (Localnet.watchCalls). */
export interface CallCount {
  readonly count: number;
}

export class StatsCounter {
  httpRequests = 0;
  calls = 0;
  #methods = new Map<string, number>();
  #roundTrips = 0;
  #answeredDepth = 0;
  readonly #watches: { readonly match: CallMatch; count: number }[] = [];

  /** Whether any call count is kept (a call's params need not be serialized otherwise). */
  get watching(): boolean {
    return this.#watches.length > 0;
  }

  /** Counts the calls matching `match` from now on; resetStats leaves it counting. */
  watch(match: CallMatch): CallCount {
    const watch = { match, count: 0 };
    this.#watches.push(watch);
    return {
      get count() {
        return watch.count;
      },
    };
  }

  /** An HTTP request arrived; call the function returned once it is answered. */
  arrived(): () => void {
    this.httpRequests++;
    const depth = this.#answeredDepth + 1;
    if (depth > this.#roundTrips) this.#roundTrips = depth;
    return () => {
      if (depth > this.#answeredDepth) this.#answeredDepth = depth;
    };
  }

  /** `params`: the call's params as JSON, needed only while a count is kept. */
  countCall(method: string, params = ""): void {
    this.calls++;
    this.#methods.set(method, (this.#methods.get(method) ?? 0) + 1);
    for (const watch of this.#watches) if (matchesCall(watch.match, { method, params })) watch.count++;
  }

  reset(): void {
    this.httpRequests = 0;
    this.calls = 0;
    this.#methods.clear();
    this.#roundTrips = 0;
    this.#answeredDepth = 0;
  }

  snapshot(): LocalnetStats {
    return {
      httpRequests: this.httpRequests,
      calls: this.calls,
      methods: Object.fromEntries(this.#methods),
      roundTrips: this.#roundTrips,
    };
  }
}
