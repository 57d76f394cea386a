import { type AnswerSizing, limitsFor } from "./answer-shape.js";
import { NO_TELEMETRY, type RpcCallOutcome, type Telemetry } from "../telemetry.js";
import { JsonRpcError, RpcError } from "./errors.js";
import type { PostPayers } from "./request-budget.js";
import type { RpcTransport } from "./transport/contract.js";

export interface RpcCall {
  readonly method: string;
  readonly params: readonly unknown[];
}

export type RpcOutcome =
  { readonly ok: true; readonly result: unknown } | { readonly ok: false; readonly error: Error };

const invalid = (what: string) => new RpcError("invalid-response", `malformed JSON-RPC answer: ${what}`);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function outcomeOf(envelope: unknown): RpcOutcome {
  if (!isObject(envelope)) return { ok: false, error: invalid("not an object") };
  const { error } = envelope;
  if (error !== undefined) {
    if (!isObject(error) || typeof error.code !== "number") return { ok: false, error: invalid("bad error object") };
    return { ok: false, error: new JsonRpcError(error.code, error.message, error.data) };
  }
  if (!("result" in envelope)) return { ok: false, error: invalid("no result") };
  return { ok: true, result: envelope.result };
}

/** A failed call: the node answered with an error object, or the exchange itself failed. */
function failureOutcome(error: unknown): RpcCallOutcome {
  if (error instanceof JsonRpcError) return "rpc_error";
  if (error instanceof RpcError && error.kind === "timeout") return "timeout";
  return "transport_fault";
}

/** JSON-RPC 2.0 over a transport: single calls and batch arrays. */
export class JsonRpcClient {
  private nextId = 1;

  constructor(
    readonly transport: RpcTransport,
    private readonly sizing: AnswerSizing = { bytesPerAccount: 1 << 20, maxAnswerBytes: transport.maxResponseBytes },
    private readonly telemetry: Telemetry = NO_TELEMETRY,
  ) {}

  /** `payers`: the request budgets this call is for (see RpcTransport.post). */
  async call(method: string, params: readonly unknown[], payers?: PostPayers): Promise<unknown> {
    this.telemetry.rpcBatchSent(1);
    try {
      const result = await this.callOnce(method, params, payers);
      this.telemetry.rpcCall(method, "ok");
      return result;
    } catch (error) {
      this.telemetry.rpcCall(method, failureOutcome(error));
      throw error;
    }
  }

  private async callOnce(method: string, params: readonly unknown[], payers: PostPayers | undefined): Promise<unknown> {
    const id = this.nextId++;
    const body = JSON.stringify({ jsonrpc: "2.0", id, method, params });
    const answer = await this.transport.post(body, limitsFor([{ method, params }], this.sizing), undefined, payers);
    if (isObject(answer) && answer.id !== id && answer.id !== null) throw invalid("id mismatch");
    const outcome = outcomeOf(answer);
    if (!outcome.ok) throw outcome.error;
    return outcome.result;
  }

  /** One HTTP request for several calls; each call succeeds or fails on its own. */
  async batch(calls: readonly RpcCall[], payers?: PostPayers): Promise<RpcOutcome[]> {
    if (calls.length === 1) {
      // Counted by `call`.
      const [only] = calls;
      return this.call(only!.method, only!.params, payers).then(
        (result): RpcOutcome[] => [{ ok: true, result }],
        (error: RpcError): RpcOutcome[] => [{ ok: false, error }],
      );
    }
    this.telemetry.rpcBatchSent(calls.length);
    let outcomes: RpcOutcome[];
    try {
      outcomes = await this.sendBatch(calls, payers);
    } catch (error) {
      for (const call of calls) this.telemetry.rpcCall(call.method, failureOutcome(error));
      throw error;
    }
    for (let i = 0; i < calls.length; i++) {
      const outcome = outcomes[i]!;
      this.telemetry.rpcCall(calls[i]!.method, outcome.ok ? "ok" : failureOutcome(outcome.error));
    }
    return outcomes;
  }

  private async sendBatch(calls: readonly RpcCall[], payers: PostPayers | undefined): Promise<RpcOutcome[]> {
    const firstId = this.nextId;
    this.nextId += calls.length;
    const body = calls.map((call, i) => ({
      jsonrpc: "2.0",
      id: firstId + i,
      method: call.method,
      params: call.params,
    }));
    const answer = await this.transport.post(JSON.stringify(body), limitsFor(calls, this.sizing), undefined, payers);
    if (!Array.isArray(answer)) {
      // A node may answer a whole batch with one error object (e.g. rate limits).
      const outcome = outcomeOf(answer);
      const error = outcome.ok ? invalid("batch answered with a single result") : outcome.error;
      return calls.map(() => ({ ok: false, error }));
    }
    const byId = new Map<unknown, unknown>();
    for (const entry of answer) if (isObject(entry)) byId.set(entry.id, entry);
    return calls.map((_, i) => {
      const entry = byId.get(firstId + i);
      return entry === undefined ? { ok: false, error: invalid("missing batch entry") } : outcomeOf(entry);
    });
  }
}
