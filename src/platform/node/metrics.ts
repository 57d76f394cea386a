import { Gauge, Registry, collectDefaultMetrics } from "prom-client";
import type {
  AnswerCacheOutcome,
  CoalescedKind,
  EndpointCircuitState,
  TokenizedIndexFallback,
  TokenizedIndexSlotEvent,
  TokenizedIndexState,
  MetricsExporter,
  RpcCallOutcome,
  RpcEndpointLabel,
  RpcRequestOutcome,
  Telemetry,
} from "../../telemetry.js";
import { type CounterChild, type HistogramChild, PlainCounter, PlainHistogram } from "./plain-metrics.js";

/** Adds one to the series of `labels` (made on first use, kept in `series` by its label values). */
function countIn(series: Map<string, CounterChild>, counter: PlainCounter, labels: Record<string, string>): void {
  const key = Object.values(labels).join("\n");
  let child = series.get(key);
  if (!child) series.set(key, (child = counter.child(labels)));
  child.value++;
}

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The process's own metrics (CPU, memory, event-loop delay, GC): one registry per process, made when the
 * first gateway asks. prom-client's collectors (a GC observer, an event-loop delay histogram) are never
 * stopped, so one set per gateway would pile up in a process that makes many (tests); and they describe
 * the process, not a gateway.
 */
let processMetrics: Registry | undefined;
function processRegistry(): Registry {
  if (!processMetrics) {
    processMetrics = new Registry();
    collectDefaultMetrics({ register: processMetrics });
  }
  return processMetrics;
}

/**
 * Telemetry as Prometheus metrics, in a registry of its own (several
 * gateways may share a process, as in tests). On the request path each
 * report is a few map lookups and an increment of a plain number on a label
 * child made on first use (plain-metrics.ts); gauges are plain numbers read
 * when `/metrics` is scraped.
 */
export class PrometheusTelemetry implements Telemetry, MetricsExporter {
  readonly registry = new Registry();
  /** A counter, a histogram and a gauge of one number, registered in this registry. */
  private counter(name: string, help: string): PlainCounter {
    return new PlainCounter({ name, help, registers: [this.registry] });
  }
  private histogram(name: string, help: string, buckets: readonly number[]): PlainHistogram {
    return new PlainHistogram({ name, help, registers: [this.registry] }, buckets);
  }
  private gauge(name: string, help: string, read: () => number): void {
    new Gauge({
      name,
      help,
      registers: [this.registry],
      collect() {
        this.set(read());
      },
    });
  }

  private httpInFlight = 0;
  private rpcInFlight = 0;
  private rpcQueued = 0;

  private readonly httpRequests = this.counter(
    "sns_gateway_http_requests_total",
    "HTTP requests answered, by route pattern, method and status",
  );
  private readonly httpDuration = this.histogram(
    "sns_gateway_http_request_duration_seconds",
    "Time from a request entering the app to its answer, by route pattern",
    LATENCY_BUCKETS,
  );
  private readonly rpcRequests = this.counter(
    "sns_gateway_rpc_requests_total",
    "HTTP requests sent to RPC nodes, by endpoint (rpc_url or override) and outcome",
  );
  private readonly rpcDuration = this.histogram(
    "sns_gateway_rpc_request_duration_seconds",
    "Duration of HTTP requests to RPC nodes, by endpoint",
    LATENCY_BUCKETS,
  );
  private readonly rpcCalls = this.counter(
    "sns_gateway_rpc_calls_total",
    "JSON-RPC calls by method and outcome (ok, rpc_error, transport_fault, timeout)",
  );
  private readonly batchCalls = this.histogram(
    "sns_gateway_rpc_batch_calls",
    "JSON-RPC calls carried by one RPC HTTP request",
    [1, 2, 3, 5, 10, 20],
  );
  private readonly batchAccounts = this.histogram(
    "sns_gateway_rpc_batch_accounts",
    "Account keys in one getMultipleAccounts call",
    [1, 2, 5, 10, 20, 50, 100],
  );
  private readonly pacedReplies = this.counter(
    "sns_gateway_rpc_paced_replies_total",
    "Batch replies whose reads were settled over several event-loop turns (RPC_SETTLE_SLICE)",
  );
  private readonly coalescedCount = this.counter(
    "sns_gateway_coalesced_total",
    "Requests that shared work already under way: a resolution, or an account read queued or in flight",
  );
  private readonly cacheLookups = this.counter(
    "sns_gateway_resolve_cache_total",
    "Lookups in the resolve response cache, by result (hit, miss), and refreshes started ahead of expiry (refresh)",
  );
  private readonly answersByCache = this.counter(
    "sns_gateway_answers_total",
    "Answers given, by where they came from: the resolve cache (hit), the resolve cache while a refresh ahead started (refreshed), a resolution another request started (coalesced), a resolution of their own (miss), no resolution (none)",
  );
  private readonly answerAge = this.histogram(
    "sns_gateway_answer_age_seconds",
    "Age of the answers served from the resolve cache (the Age header they carried), in whole seconds",
    [0, 1, 2, 5, 10, 30, 60, 120, 300],
  );

  private readonly bulkRequests = this.counter(
    "sns_gateway_bulk_requests_total",
    "Bulk resolve requests answered 200, by route pattern",
  );
  private readonly bulkNames = this.counter(
    "sns_gateway_bulk_names_total",
    "Names asked for in bulk resolve requests answered 200 (repeats included), by route pattern",
  );
  private readonly bulkByRoute = new Map<string, { readonly requests: CounterChild; readonly names: CounterChild }>();
  private readonly endpointEvents = this.counter(
    "sns_gateway_rpc_endpoint_events_total",
    "Per endpoint of a several-URL RPC_URL (by host): reads sent (request), reads that left it for the next endpoint (failover), hedges sent to it (hedge)",
  );
  private readonly endpointFaults = this.counter(
    "sns_gateway_rpc_endpoint_faults_total",
    "Faults of each endpoint of a several-URL RPC_URL (by host), by kind",
  );
  private readonly indexFallbacks = this.counter(
    "sns_gateway_tokenized_index_fallbacks_total",
    "/domains requests that found tokenized domains by scanning because the index could not answer, by reason (building, failed, over_budget, slow)",
  );
  private readonly indexFallbackSeries = new Map<string, CounterChild>();
  private readonly indexSlotEvents = this.counter(
    "sns_gateway_tokenized_index_slot_events_total",
    "Slots from RPC answers the tokenized index refused as past what the time elapsed allows (claim_refused), and floors it dropped because no endpoint reached them in time (floor_dropped)",
  );
  private readonly indexSlotSeries = new Map<string, CounterChild>();
  private indexState: TokenizedIndexState | undefined;
  /** The circuit state of each endpoint host. */
  private readonly circuits = new Map<string, EndpointCircuitState>();
  private readonly endpointEventSeries = new Map<string, CounterChild>();
  private readonly endpointFaultSeries = new Map<string, CounterChild>();

  private readonly requestsByRoute = new Map<string, Map<string, Map<number, CounterChild>>>();
  private readonly durationByRoute = new Map<string, HistogramChild>();
  private readonly rpcRequestsByEndpoint = new Map<RpcEndpointLabel, Map<RpcRequestOutcome, CounterChild>>();
  private readonly rpcDurationByEndpoint = new Map<RpcEndpointLabel, HistogramChild>();
  private readonly callsByMethod = new Map<string, Map<RpcCallOutcome, CounterChild>>();
  private readonly coalescedByKind: Record<CoalescedKind, CounterChild> = {
    resolution: this.coalescedCount.child({ kind: "resolution" }),
    account: this.coalescedCount.child({ kind: "account" }),
  };
  // Series with fixed labels (or none) are shown from the first scrape, at 0.
  private readonly cacheHit = this.cacheLookups.child({ result: "hit" });
  private readonly cacheMiss = this.cacheLookups.child({ result: "miss" });
  private readonly cacheRefresh = this.cacheLookups.child({ result: "refresh" });
  private readonly answersByCacheSeries: Record<AnswerCacheOutcome, CounterChild> = {
    hit: this.answersByCache.child({ cache: "hit" }),
    miss: this.answersByCache.child({ cache: "miss" }),
    coalesced: this.answersByCache.child({ cache: "coalesced" }),
    refreshed: this.answersByCache.child({ cache: "refreshed" }),
    none: this.answersByCache.child({ cache: "none" }),
  };
  private readonly answerAgeSeries = this.answerAge.child({});
  private readonly batchCallsSeries = this.batchCalls.child({});
  private readonly batchAccountsSeries = this.batchAccounts.child({});
  private readonly pacedRepliesSeries = this.pacedReplies.child({});

  constructor() {
    const self = this;
    this.gauge("sns_gateway_http_requests_in_flight", "HTTP requests being answered", () => this.httpInFlight);
    this.gauge(
      "sns_gateway_rpc_requests_in_flight",
      "HTTP requests to RPC nodes awaiting their answer",
      () => this.rpcInFlight,
    );
    this.gauge(
      "sns_gateway_rpc_queue_depth",
      "Account keys and calls waiting for a free RPC request slot, all endpoints together",
      () => this.rpcQueued,
    );
    new Gauge({
      name: "sns_gateway_rpc_endpoint_circuit",
      help: "Circuit of each endpoint of a several-URL RPC_URL (by host): 1 for its state, closed (in rotation), open (out of rotation) or half_open (being probed)",
      labelNames: ["endpoint", "state"],
      registers: [this.registry],
      collect() {
        for (const [endpoint, current] of self.circuits) {
          for (const state of ["closed", "open", "half_open"] as const)
            this.set({ endpoint, state }, state === current ? 1 : 0);
        }
      },
    });
    new Gauge({
      name: "sns_gateway_tokenized_index_state",
      help: "State of the tokenized index: 1 for its state (idle, building, ready, failed, over_budget)",
      labelNames: ["state"],
      registers: [this.registry],
      collect() {
        if (self.indexState === undefined) return;
        for (const state of ["idle", "building", "ready", "failed", "over_budget"] as const) {
          this.set({ state }, state === self.indexState ? 1 : 0);
        }
      },
    });
    this.process = processRegistry();
  }

  private readonly process: Registry;

  get contentType(): string {
    return this.registry.contentType;
  }

  async render(): Promise<string> {
    // Both registries render the text exposition format, each metric ending in a newline: one after the other.
    const [own, processWide] = await Promise.all([this.registry.metrics(), this.process.metrics()]);
    return own + processWide;
  }

  httpRequestStarted(): void {
    this.httpInFlight++;
  }

  httpRequestFinished(route: string, method: string, status: number, seconds: number): void {
    this.httpInFlight--;
    let byMethod = this.requestsByRoute.get(route);
    if (!byMethod) this.requestsByRoute.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let requests = byStatus.get(status);
    if (!requests)
      byStatus.set(status, (requests = this.httpRequests.child({ route, method, status: String(status) })));
    requests.value++;
    let duration = this.durationByRoute.get(route);
    if (!duration) this.durationByRoute.set(route, (duration = this.httpDuration.child({ route })));
    this.httpDuration.observe(duration, seconds);
  }

  rpcRequestStarted(): void {
    this.rpcInFlight++;
  }

  rpcRequestFinished(endpoint: RpcEndpointLabel, outcome: RpcRequestOutcome, seconds: number): void {
    this.rpcInFlight--;
    let byOutcome = this.rpcRequestsByEndpoint.get(endpoint);
    if (!byOutcome) this.rpcRequestsByEndpoint.set(endpoint, (byOutcome = new Map()));
    let requests = byOutcome.get(outcome);
    if (!requests) byOutcome.set(outcome, (requests = this.rpcRequests.child({ endpoint, outcome })));
    requests.value++;
    let duration = this.rpcDurationByEndpoint.get(endpoint);
    if (!duration) this.rpcDurationByEndpoint.set(endpoint, (duration = this.rpcDuration.child({ endpoint })));
    this.rpcDuration.observe(duration, seconds);
  }

  rpcCall(method: string, outcome: RpcCallOutcome): void {
    let byOutcome = this.callsByMethod.get(method);
    if (!byOutcome) this.callsByMethod.set(method, (byOutcome = new Map()));
    let calls = byOutcome.get(outcome);
    if (!calls) byOutcome.set(outcome, (calls = this.rpcCalls.child({ method, outcome })));
    calls.value++;
  }

  rpcBatchSent(calls: number): void {
    this.batchCalls.observe(this.batchCallsSeries, calls);
  }

  accountsBatched(keys: number): void {
    this.batchAccounts.observe(this.batchAccountsSeries, keys);
  }

  rpcReplyPaced(): void {
    this.pacedRepliesSeries.value++;
  }

  rpcEndpointEvent(endpoint: string, event: "request" | "failover" | "hedge"): void {
    countIn(this.endpointEventSeries, this.endpointEvents, { endpoint, event });
  }

  rpcEndpointFault(endpoint: string, kind: string): void {
    countIn(this.endpointFaultSeries, this.endpointFaults, { endpoint, kind });
  }

  rpcEndpointCircuit(endpoint: string, state: EndpointCircuitState): void {
    this.circuits.set(endpoint, state);
  }

  tokenizedIndexState(state: TokenizedIndexState): void {
    this.indexState = state;
  }

  tokenizedIndexFallback(reason: TokenizedIndexFallback): void {
    countIn(this.indexFallbackSeries, this.indexFallbacks, { reason });
  }

  tokenizedIndexSlot(event: TokenizedIndexSlotEvent): void {
    countIn(this.indexSlotSeries, this.indexSlotEvents, { event });
  }

  rpcQueueChanged(delta: number): void {
    this.rpcQueued += delta;
  }

  coalesced(kind: CoalescedKind): void {
    this.coalescedByKind[kind].value++;
  }

  resolveCache(result: "hit" | "miss" | "refresh"): void {
    (result === "hit" ? this.cacheHit : result === "miss" ? this.cacheMiss : this.cacheRefresh).value++;
  }

  answerServed(cache: AnswerCacheOutcome, ageSeconds: number | undefined): void {
    this.answersByCacheSeries[cache].value++;
    if (ageSeconds !== undefined) this.answerAge.observe(this.answerAgeSeries, ageSeconds);
  }

  bulkResolved(route: string, names: number): void {
    let counters = this.bulkByRoute.get(route);
    if (!counters) {
      counters = { requests: this.bulkRequests.child({ route }), names: this.bulkNames.child({ route }) };
      this.bulkByRoute.set(route, counters);
    }
    counters.requests.value++;
    counters.names.value += names;
  }
}
