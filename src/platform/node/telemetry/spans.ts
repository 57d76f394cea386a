import type { Context, Tracer as OtelTracer, Span } from "@opentelemetry/api";
import type { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import type { W3CTraceContextPropagator } from "@opentelemetry/core";

/**
 * What every span maker of this folder shares: one tracer, the
 * AsyncLocalStorage contexts (no global context manager, propagator or
 * provider is registered: two gateways in one process keep theirs apart),
 * and the W3C propagator.
 */
export interface Spans {
  readonly tracer: OtelTracer;
  readonly contexts: AsyncLocalStorageContextManager;
  readonly propagator: W3CTraceContextPropagator;
}

/** Attribute of every span of this gateway's own work: `ok`, or what went wrong, by class or code (never a message). */
export const OUTCOME = "sns_gateway.outcome";

/**
 * What an error is called on a span: its code when it has one (SnsError,
 * Node's system errors), else its class. Messages are never exported: an
 * RPC fault's message may quote what the node or the network said.
 */
export function outcomeOfError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && /^[\w.-]{1,64}$/.test(code)) return code;
  return error instanceof Error ? error.name : "error";
}

export type { Context, Span };
