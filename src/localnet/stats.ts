export interface LocalnetStats {
  /** HTTP requests received, whatever their path or outcome; a batch counts once. */
  readonly httpRequests: number;
  /** JSON-RPC calls received; each call of a batch counts. */
  readonly calls: number;
  /** Calls by method name, including unknown methods. */
  readonly methods: Readonly<Record<string, number>>;
}

export class StatsCounter {
  httpRequests = 0;
  calls = 0;
  #methods = new Map<string, number>();

  countCall(method: string): void {
    this.calls++;
    this.#methods.set(method, (this.#methods.get(method) ?? 0) + 1);
  }

  reset(): void {
    this.httpRequests = 0;
    this.calls = 0;
    this.#methods.clear();
  }

  snapshot(): LocalnetStats {
    return { httpRequests: this.httpRequests, calls: this.calls, methods: Object.fromEntries(this.#methods) };
  }
}
