/**
 * Every way an RPC exchange can fail, as typed values. The HTTP layer maps
 * all of them except a refused endpoint to 502; the original cause is kept
 * for logs only.
 */
export type RpcFailureKind =
  | "jsonrpc" // the node answered with a JSON-RPC error object
  | "http-status" // non-2xx HTTP status (redirects included: they are not followed)
  | "invalid-response" // not JSON, not JSON-RPC, or a result of the wrong shape
  | "network" // refused, reset, DNS failure, TLS failure
  | "timeout" // no complete answer within the deadline
  | "too-large"; // response body over the size limit

export class RpcError extends Error {
  override readonly name = "RpcError";
  constructor(
    readonly kind: RpcFailureKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export class JsonRpcError extends RpcError {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super("jsonrpc", `JSON-RPC error ${code}: ${message}`);
  }
}

/** The `rpc` override points somewhere the policy forbids; nothing was sent. */
export class RpcEndpointRefusedError extends Error {
  override readonly name = "RpcEndpointRefusedError";
}

/** Neither `RPC_URL` nor an `rpc` parameter names an endpoint. */
export class RpcNotConfiguredError extends Error {
  override readonly name = "RpcNotConfiguredError";
  constructor() {
    super("RPC_URL is not configured");
  }
}

export const INVALID_PARAMS = -32602;
