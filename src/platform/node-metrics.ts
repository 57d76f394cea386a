import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type {
  CoalescedKind,
  MetricsExporter,
  RpcCallOutcome,
  RpcEndpointLabel,
  RpcRequestOutcome,
  Telemetry,
} from "../telemetry.js";

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type CounterChild = ReturnType<Counter<string>["labels"]>;
type HistogramChild = ReturnType<Histogram<string>["labels"]>;

/**
 * Telemetry as Prometheus metrics, in a registry of its own (several
 * gateways may share a process, as in tests). On the request path each
 * report is a few map lookups and an increment on a label child bound on
 * first use;
 * gauges are plain numbers read when `/metrics` is scraped.
 */
export class PrometheusTelemetry implements Telemetry, MetricsExporter {
  readonly registry = new Registry();
  private httpInFlight = 0;
  private rpcInFlight = 0;
  private rpcQueued = 0;

  private readonly httpRequests = new Counter({
    name: "sns_gateway_http_requests_total",
    help: "HTTP requests answered, by route pattern, method and status",
    labelNames: ["route", "method", "status"],
    registers: [this.registry],
  });
  private readonly httpDuration = new Histogram({
    name: "sns_gateway_http_request_duration_seconds",
    help: "Time from a request entering the app to its answer, by route pattern",
    labelNames: ["route"],
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  private readonly rpcRequests = new Counter({
    name: "sns_gateway_rpc_requests_total",
    help: "HTTP requests sent to RPC nodes, by endpoint (rpc_url or override) and outcome",
    labelNames: ["endpoint", "outcome"],
    registers: [this.registry],
  });
  private readonly rpcDuration = new Histogram({
    name: "sns_gateway_rpc_request_duration_seconds",
    help: "Duration of HTTP requests to RPC nodes, by endpoint",
    labelNames: ["endpoint"],
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  private readonly rpcCalls = new Counter({
    name: "sns_gateway_rpc_calls_total",
    help: "JSON-RPC calls by method and outcome (ok, rpc_error, transport_fault, timeout)",
    labelNames: ["method", "outcome"],
    registers: [this.registry],
  });
  private readonly batchCalls = new Histogram({
    name: "sns_gateway_rpc_batch_calls",
    help: "JSON-RPC calls carried by one RPC HTTP request",
    buckets: [1, 2, 3, 5, 10, 20],
    registers: [this.registry],
  });
  private readonly batchAccounts = new Histogram({
    name: "sns_gateway_rpc_batch_accounts",
    help: "Account keys in one getMultipleAccounts call",
    buckets: [1, 2, 5, 10, 20, 50, 100],
    registers: [this.registry],
  });
  private readonly pacedReplies = new Counter({
    name: "sns_gateway_rpc_paced_replies_total",
    help: "Batch replies whose reads were settled over several event-loop turns (RPC_SETTLE_SLICE)",
    registers: [this.registry],
  });
  private readonly coalescedCount = new Counter({
    name: "sns_gateway_coalesced_total",
    help: "Requests that shared work already under way: a resolution, or an account read queued or in flight",
    labelNames: ["kind"],
    registers: [this.registry],
  });
  private readonly cacheLookups = new Counter({
    name: "sns_gateway_resolve_cache_total",
    help: "Lookups in the resolve response cache, by result (hit, miss)",
    labelNames: ["result"],
    registers: [this.registry],
  });

  private readonly requestsByRoute = new Map<string, Map<string, Map<number, CounterChild>>>();
  private readonly durationByRoute = new Map<string, HistogramChild>();
  private readonly rpcRequestsByEndpoint = new Map<RpcEndpointLabel, Map<RpcRequestOutcome, CounterChild>>();
  private readonly rpcDurationByEndpoint = new Map<RpcEndpointLabel, HistogramChild>();
  private readonly callsByMethod = new Map<string, Map<RpcCallOutcome, CounterChild>>();
  private readonly coalescedByKind: Record<CoalescedKind, CounterChild> = {
    resolution: this.coalescedCount.labels("resolution"),
    account: this.coalescedCount.labels("account"),
  };
  private readonly cacheHit = this.cacheLookups.labels("hit");
  private readonly cacheMiss = this.cacheLookups.labels("miss");

  constructor() {
    const self = this;
    new Gauge({
      name: "sns_gateway_http_requests_in_flight",
      help: "HTTP requests being answered",
      registers: [this.registry],
      collect() {
        this.set(self.httpInFlight);
      },
    });
    new Gauge({
      name: "sns_gateway_rpc_requests_in_flight",
      help: "HTTP requests to RPC nodes awaiting their answer",
      registers: [this.registry],
      collect() {
        this.set(self.rpcInFlight);
      },
    });
    new Gauge({
      name: "sns_gateway_rpc_queue_depth",
      help: "Account keys and calls waiting for a free RPC request slot, all endpoints together",
      registers: [this.registry],
      collect() {
        this.set(self.rpcQueued);
      },
    });
    // Series with fixed labels are shown from the first scrape, at 0.
    for (const child of [...Object.values(this.coalescedByKind), this.cacheHit, this.cacheMiss, this.pacedReplies]) child.inc(0);
    collectDefaultMetrics({ register: this.registry });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  render(): Promise<string> {
    return this.registry.metrics();
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
    if (!requests) byStatus.set(status, (requests = this.httpRequests.labels(route, method, String(status))));
    requests.inc();
    let duration = this.durationByRoute.get(route);
    if (!duration) this.durationByRoute.set(route, (duration = this.httpDuration.labels(route)));
    duration.observe(seconds);
  }

  rpcRequestStarted(): void {
    this.rpcInFlight++;
  }

  rpcRequestFinished(endpoint: RpcEndpointLabel, outcome: RpcRequestOutcome, seconds: number): void {
    this.rpcInFlight--;
    let byOutcome = this.rpcRequestsByEndpoint.get(endpoint);
    if (!byOutcome) this.rpcRequestsByEndpoint.set(endpoint, (byOutcome = new Map()));
    let requests = byOutcome.get(outcome);
    if (!requests) byOutcome.set(outcome, (requests = this.rpcRequests.labels(endpoint, outcome)));
    requests.inc();
    let duration = this.rpcDurationByEndpoint.get(endpoint);
    if (!duration) this.rpcDurationByEndpoint.set(endpoint, (duration = this.rpcDuration.labels(endpoint)));
    duration.observe(seconds);
  }

  rpcCall(method: string, outcome: RpcCallOutcome): void {
    let byOutcome = this.callsByMethod.get(method);
    if (!byOutcome) this.callsByMethod.set(method, (byOutcome = new Map()));
    let calls = byOutcome.get(outcome);
    if (!calls) byOutcome.set(outcome, (calls = this.rpcCalls.labels(method, outcome)));
    calls.inc();
  }

  rpcBatchSent(calls: number): void {
    this.batchCalls.observe(calls);
  }

  accountsBatched(keys: number): void {
    this.batchAccounts.observe(keys);
  }

  rpcReplyPaced(): void {
    this.pacedReplies.inc();
  }

  rpcQueueChanged(delta: number): void {
    this.rpcQueued += delta;
  }

  coalesced(kind: CoalescedKind): void {
    this.coalescedByKind[kind].inc();
  }

  resolveCache(result: "hit" | "miss"): void {
    (result === "hit" ? this.cacheHit : this.cacheMiss).inc();
  }
}
