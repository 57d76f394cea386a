/**
 * JSON-RPC error codes that describe the node that answered, not the chain:
 * another node may well answer the same read. Anything else a node says in
 * an error object (-32602 "no such mint", a bad parameter) is a fact about
 * the chain or the request and is never asked elsewhere.
 */
export const NODE_CONDITION_CODES: ReadonlySet<number> = new Set([
  -32004, // block not available for slot
  -32005, // node is unhealthy / behind
  -32010, // key excluded from this node's secondary indexes
  -32011, // transaction history not available from this node
  -32014, // block status not yet available
  -32016, // minimum context slot has not been reached
  -32601, // method not found: this node does not serve it
  -32603, // internal error
]);

function codeOf(entry: unknown): number | undefined {
  if (typeof entry !== "object" || entry === null) return undefined;
  const error = (entry as { error?: unknown }).error;
  if (typeof error !== "object" || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === "number" ? code : undefined;
}

/**
 * The first node-condition code in a parsed JSON-RPC answer (a single
 * envelope or a batch array), if any: one such call makes the whole
 * exchange worth asking elsewhere (reads are idempotent). A -32016 is
 * returned only when the batch has no other: it alone is no fault of the
 * node (fault-kind.ts), another code in the same answer is.
 */
export function nodeConditionIn(answer: unknown): number | undefined {
  if (Array.isArray(answer)) {
    let found: number | undefined;
    for (const entry of answer) {
      const code = codeOf(entry);
      if (code === undefined || !NODE_CONDITION_CODES.has(code)) continue;
      if (code !== -32016) return code;
      found = code;
    }
    return found;
  }
  const code = codeOf(answer);
  return code !== undefined && NODE_CONDITION_CODES.has(code) ? code : undefined;
}
