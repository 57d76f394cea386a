/** JSON-RPC 2.0 error codes, plus the Solana-specific ones Agave emits. */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  UnsupportedTransactionVersion: -32015,
  MinContextSlotNotReached: -32016,
} as const;

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** The JSON-RPC error a method answers with: thrown by method handlers, it becomes the `error` member of the response. */
export class JsonRpcErrorAnswer extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }

  toJSON(): JsonRpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

/** Agave's `Error::invalid_params(...)`; callers include the "Invalid param:" prefix like Agave does. */
export const invalidParams = (message: string) => new JsonRpcErrorAnswer(ErrorCode.InvalidParams, message);

/** Shape errors that jsonrpc-core's serde layer reports before a handler runs. */
export const badParams = (detail: string) =>
  new JsonRpcErrorAnswer(ErrorCode.InvalidParams, `Invalid params: ${detail}.`);

export const invalidRequest = (message = "Invalid request") =>
  new JsonRpcErrorAnswer(ErrorCode.InvalidRequest, message);
