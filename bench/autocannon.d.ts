// autocannon 9 ships no type declarations; this covers what bench/load.ts uses.
declare module "autocannon" {
  interface RequestParams {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    [key: string]: unknown;
  }

  interface RequestDefinition {
    method?: string;
    path?: string;
    setupRequest?: (request: RequestParams, context: Record<string, unknown>) => RequestParams | undefined;
    onResponse?: (
      status: number,
      body: string,
      context: Record<string, unknown>,
      headers: Record<string, unknown>,
    ) => void;
  }

  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    pipelining?: number;
    timeout?: number;
    requests?: RequestDefinition[];
    /** Called with each connection's client object right after it is created. */
    setupClient?: (client: unknown) => void;
  }

  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p99: number;
    p999?: number;
  }

  interface Result {
    duration: number;
    latency: Histogram;
    requests: Histogram & { sent: number };
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats?: Record<string, { count: number }>;
  }

  function autocannon(options: Options): Promise<Result> & { stop(): void };
  export default autocannon;
}
