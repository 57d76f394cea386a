import { RpcFailure } from "../errors.js";

/**
 * An answer whose JSON-RPC error says the node cannot serve the read now
 * (see node-condition.ts). It carries the parsed answer: when no endpoint
 * does better, that answer is what the caller gets, exactly as with a single
 * endpoint.
 */
export class NodeConditionFault extends RpcFailure {
  constructor(
    readonly code: number,
    readonly answer: unknown,
  ) {
    super("jsonrpc", `RPC node condition ${code}`);
  }
}
