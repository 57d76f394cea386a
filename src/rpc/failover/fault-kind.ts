import { BrokenCircuitError } from "cockatiel";
import { HttpStatusError, MIN_CONTEXT_SLOT_NOT_REACHED, RpcFailure } from "../errors.js";
import { NodeConditionFault } from "./node-condition-fault.js";

/** Why one endpoint could not answer a read that another endpoint may answer; a metrics label. */
export type EndpointFaultKind =
  | "network"
  | "timeout"
  | "rate_limited" // HTTP 429
  | "http_5xx"
  | "http_status" // any other non-2xx status (401/403 of a bad key, 413 of a provider's body limit, …)
  | "invalid_response" // not JSON or not JSON-RPC (an HTML error page from a proxy)
  | "node_condition"; // a JSON-RPC error about the node: unhealthy, behind, method not served

/**
 * The kind of an exchange failure that sends the read to the next endpoint,
 * or null for one that would fail the same way anywhere: an answer over its
 * size limits, the gateway's own memory budget, a refused address, a
 * circuit already open (skipped, not a new fault).
 */
export function failoverKindOf(error: unknown): EndpointFaultKind | null {
  if (error instanceof NodeConditionFault) return "node_condition";
  if (error instanceof BrokenCircuitError) return null;
  if (error instanceof HttpStatusError) {
    if (error.status === 429) return "rate_limited";
    return error.status >= 500 ? "http_5xx" : "http_status";
  }
  if (!(error instanceof RpcFailure)) return null;
  switch (error.kind) {
    case "network":
      return "network";
    case "timeout":
      return "timeout";
    case "invalid-response":
      return "invalid_response";
    case "http-status":
      return "http_status";
    default:
      return null;
  }
}

/**
 * Whether a fault that fails a read over also counts against the endpoint's
 * circuit. A -32016 (minimum context slot not reached) answers a
 * `minContextSlot` the gateway chose (the tokenized index's floor): the node
 * said truly that it is behind that slot, which may itself be too new (an
 * answer of another endpoint set it), so the read goes on to the next
 * endpoint but the node is not benched for it.
 */
export function countsAgainstEndpoint(error: unknown): boolean {
  if (error instanceof NodeConditionFault && error.code === MIN_CONTEXT_SLOT_NOT_REACHED) return false;
  return failoverKindOf(error) !== null;
}
