import type { RpcEndpointLabel, RpcRequestOutcome, Telemetry } from "../../telemetry.js";
import { OverloadedError, RpcEndpointRefusedError, RpcFailure, type RpcFailureKind } from "../errors.js";
import type { RpcTransport } from "./contract.js";

const OUTCOME_OF_KIND: Record<RpcFailureKind, RpcRequestOutcome> = {
  jsonrpc: "ok", // a whole-batch error object is still an answer; calls count it as rpc_error
  "http-status": "http_status",
  "invalid-response": "invalid_response",
  network: "network",
  timeout: "timeout",
  "too-large": "too_large",
  budget: "budget",
};

/** How a post that threw `error` ended, as the metrics and the RPC spans of src/platform/node/telemetry/ name it. */
export function outcomeOf(error: unknown): RpcRequestOutcome {
  if (error instanceof RpcFailure) return OUTCOME_OF_KIND[error.kind];
  if (error instanceof RpcEndpointRefusedError) return "refused";
  if (error instanceof OverloadedError) return "overloaded";
  return "network";
}

/**
 * Counts and times every HTTP request a transport sends, whatever the
 * transport (undici on Node, fetch elsewhere): the wrapper only sees
 * `post` settle.
 */
export function instrumentTransport(
  transport: RpcTransport,
  telemetry: Telemetry,
  endpoint: RpcEndpointLabel,
): RpcTransport {
  return {
    url: transport.url,
    maxResponseBytes: transport.maxResponseBytes,
    async post(body, limits, signal, payers) {
      telemetry.rpcRequestStarted();
      const started = performance.now();
      try {
        const answer = await transport.post(body, limits, signal, payers);
        telemetry.rpcRequestFinished(endpoint, "ok", (performance.now() - started) / 1000);
        return answer;
      } catch (error) {
        telemetry.rpcRequestFinished(endpoint, outcomeOf(error), (performance.now() - started) / 1000);
        throw error;
      }
    },
  };
}
