import { RENT_EXEMPT_EPOCH } from "./account-json.js";
import type { Ledger } from "./ledger.js";
import { methods } from "./methods/index.js";
import {
  ErrorCode,
  JsonRpcErrorAnswer,
  type JsonRpcErrorObject,
  badParams,
  invalidRequest,
} from "./json-rpc-error-answer.js";

type Id = string | number | null;

export interface Call {
  readonly method: string;
  readonly params: readonly unknown[] | null;
  /** Absent for notifications, which are executed but never answered. */
  readonly id?: Id;
}

/** A request body after JSON parsing; invalid calls are kept so they can be answered in place. */
export type RequestBody =
  | { readonly kind: "unparsable" }
  | { readonly kind: "single"; readonly call: Call | JsonRpcErrorAnswer }
  | { readonly kind: "batch"; readonly calls: readonly (Call | JsonRpcErrorAnswer)[] };

/** What a call-level fault does to a call instead of running it. */
export type CallOverride = { readonly error: JsonRpcErrorObject } | { readonly result: unknown };

export interface CallHooks {
  onCall?(method: string, params: readonly unknown[] | null): void;
  overrideCall?(method: string, params: readonly unknown[] | null): CallOverride | undefined;
}

interface Response {
  jsonrpc: "2.0";
  result?: unknown;
  error?: JsonRpcErrorObject;
  id: Id;
}

const isId = (value: unknown): value is Id =>
  value === null || typeof value === "string" || (typeof value === "number" && Number.isFinite(value));

function toCall(value: unknown): Call | JsonRpcErrorAnswer {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return invalidRequest();
  const request = value as Record<string, unknown>;
  const { jsonrpc, method, params, id } = request;
  if ((jsonrpc !== undefined && jsonrpc !== "2.0") || typeof method !== "string") return invalidRequest();
  if ("id" in request && !isId(id)) return invalidRequest();
  if (params !== undefined && params !== null && typeof params !== "object") return invalidRequest();
  // Agave's handlers are positional; a params object reaches them as a serde type error.
  const positional = params === undefined || params === null ? [] : Array.isArray(params) ? params : null;
  return "id" in request ? { method, params: positional, id: id as Id } : { method, params: positional };
}

export function parseBody(text: string): RequestBody {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: "unparsable" };
  }
  if (Array.isArray(value) && value.length > 0) return { kind: "batch", calls: value.map(toCall) };
  return { kind: "single", call: Array.isArray(value) ? invalidRequest() : toCall(value) };
}

/** The calls of a body, method and params as JSON text, to match scoped faults. */
export function callsOf(body: RequestBody): { method: string; params: string }[] {
  if (body.kind === "unparsable") return [];
  const calls = body.kind === "single" ? [body.call] : body.calls;
  return calls.flatMap((call) =>
    call instanceof JsonRpcErrorAnswer ? [] : [{ method: call.method, params: JSON.stringify(call.params) }],
  );
}

function run(call: Call, ledger: Ledger, hooks: CallHooks): Pick<Response, "result" | "error"> {
  hooks.onCall?.(call.method, call.params);
  const override = hooks.overrideCall?.(call.method, call.params);
  if (override) return override;
  const handler = methods.get(call.method);
  if (!handler) return { error: { code: ErrorCode.MethodNotFound, message: "Method not found" } };
  try {
    if (call.params === null) throw badParams("invalid type: map, expected a tuple");
    return { result: handler(call.params, ledger) };
  } catch (error) {
    if (error instanceof JsonRpcErrorAnswer) return { error: error.toJSON() };
    return { error: { code: ErrorCode.InternalError, message: "Internal error" } };
  }
}

function answer(call: Call | JsonRpcErrorAnswer, ledger: Ledger, hooks: CallHooks): Response | undefined {
  if (call instanceof JsonRpcErrorAnswer) return { jsonrpc: "2.0", error: call.toJSON(), id: null };
  const outcome = run(call, ledger, hooks);
  if (!("id" in call)) return undefined;
  return { jsonrpc: "2.0", ...outcome, id: call.id ?? null };
}

const RENT_EPOCH_APPROXIMATION = `"rentEpoch":${JSON.stringify(RENT_EXEMPT_EPOCH)}`;
const RENT_EPOCH_EXACT = '"rentEpoch":18446744073709551615';

function serialize(payload: Response | Response[]): string {
  return JSON.stringify(payload).replaceAll(RENT_EPOCH_APPROXIMATION, RENT_EPOCH_EXACT);
}

/** Response text for a body, or undefined when it held only notifications. */
export function respond(body: RequestBody, ledger: Ledger, hooks: CallHooks = {}): string | undefined {
  if (body.kind === "unparsable") {
    return serialize({ jsonrpc: "2.0", error: { code: ErrorCode.ParseError, message: "Parse error" }, id: null });
  }
  if (body.kind === "single") {
    const response = answer(body.call, ledger, hooks);
    return response && serialize(response);
  }
  const responses: Response[] = [];
  for (const call of body.calls) {
    const response = answer(call, ledger, hooks);
    if (response) responses.push(response);
  }
  return responses.length > 0 ? serialize(responses) : undefined;
}
