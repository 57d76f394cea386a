/** What an RPC request asks, for its span: never the keys themselves nor any parameter but their count. */
export interface RpcBodySummary {
  /** The JSON-RPC methods called, each once, joined by ","; "unknown" when the body does not say. */
  readonly methods: string;
  /** JSON-RPC calls in the body (1 for a single call, the array's length for a batch). */
  readonly calls: number;
  /** Account keys named: the keys of `getMultipleAccounts`, 1 for a call whose first parameter is a key. */
  readonly keys: number;
}

/** Summarizes a JSON-RPC request body (one call or a batch array) as the transports post it. */
export function summarizeRpcBody(body: string): RpcBodySummary {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { methods: "unknown", calls: 0, keys: 0 };
  }
  const calls: unknown[] = Array.isArray(parsed) ? parsed : [parsed];
  const methods: string[] = [];
  let keys = 0;
  for (const call of calls) {
    const { method, params } = (call ?? {}) as { method?: unknown; params?: unknown };
    if (typeof method === "string" && !methods.includes(method)) methods.push(method);
    const first: unknown = Array.isArray(params) ? params[0] : undefined;
    if (Array.isArray(first)) keys += first.length;
    else if (typeof first === "string") keys += 1;
  }
  return { methods: methods.length > 0 ? methods.join(",") : "unknown", calls: calls.length, keys };
}

/** JSON-RPC error objects in an answer (one answer or a batch's array). */
export function rpcErrorsIn(answer: unknown): number {
  const answers: unknown[] = Array.isArray(answer) ? answer : [answer];
  let errors = 0;
  for (const one of answers) if ((one as { error?: unknown } | null)?.error !== undefined) errors++;
  return errors;
}
