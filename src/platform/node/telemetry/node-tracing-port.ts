import type { RequestListener } from "node:http";
import type { Dispatcher } from "undici";
import type { Logger } from "../../../logger.js";
import type { TransportFactory } from "../../../rpc/transport/contract.js";
import type { Tracer } from "../../../tracer.js";

/**
 * What tracing adds to the Node gateway, at each seam (src/platform/node/gateway.ts
 * wires them). Only types here: importing this file loads no OpenTelemetry module.
 */
export interface NodeTracing {
  /** The collector's host label (src/rpc/failover/host-label.ts) and the service name, for the startup line. */
  readonly collector: string;
  readonly serviceName: string;
  /** Spans around resolutions (src/tracer.ts). */
  readonly tracer: Tracer;
  /** A server span around each request, continuing the client's `traceparent` (server-spans.ts). */
  aroundRequest(listener: RequestListener): RequestListener;
  /** `logger` whose request lines also complete the request's server span (server-spans.ts). */
  requestLogger(logger: Logger): Logger;
  /** `factory` whose transports make a span per RPC request (rpc-spans.ts). */
  transports(factory: TransportFactory): TransportFactory;
  /** Adds the RPC span's `traceparent` to each RPC request sent (trace-header.ts). */
  readonly interceptor: Dispatcher.DispatcherComposeInterceptor;
  /** Exports the spans still buffered and stops, giving up after `boundMs`. */
  shutdown(boundMs: number): Promise<void>;
}
