import { type CallMatch, type CallShape, matchesCall } from "./call-match.js";
import type { CallOverride } from "./jsonrpc.js";

export type { CallShape } from "./call-match.js";

/** `method`, `params`: only requests making such a call are affected (any call of a batch), and only that call. */
interface FaultScope extends CallMatch {
  /** Affect this many HTTP requests, then clear the fault. Unlimited when absent. */
  readonly times?: number;
  /** Affect each matching request with this probability (0 to 1); every one when absent. */
  readonly probability?: number;
  /** Let this many matching HTTP requests through first (a fault on a later read of a sequence). */
  readonly skip?: number;
}

/** Ways the localnet can misbehave on purpose, to exercise client error paths. */
export type Fault = FaultScope &
  (
    | { readonly kind: "jsonrpc-error"; readonly code: number; readonly message: string; readonly data?: unknown }
    | {
        readonly kind: "http-status";
        readonly status: number;
        readonly body?: string;
        /** e.g. `{ "retry-after": "2" }` on a 429. */
        readonly headers?: Readonly<Record<string, string>>;
      }
    | { readonly kind: "garbage"; readonly body?: string }
    | { readonly kind: "hang" }
    | { readonly kind: "malformed-result"; readonly result?: unknown }
  );

/** Result that no Solana RPC method returns: an object without `context`/`value`. */
export const MALFORMED_RESULT = { malformed: true } as const;

export class FaultSwitch {
  #fault: Fault | null = null;
  #remaining = Infinity;
  #skipping = 0;

  constructor(private readonly random: () => number = Math.random) {}

  set(fault: Fault | null): void {
    this.#fault = fault;
    this.#remaining = fault?.times ?? Infinity;
    this.#skipping = fault?.skip ?? 0;
  }

  /** Whether a fault is set (the calls of a request need not be looked at otherwise). */
  get armed(): boolean {
    return this.#fault !== null;
  }

  /** The fault applying to a request making `calls`, consuming one use of it. */
  take(calls: readonly CallShape[]): Fault | null {
    const fault = this.#fault;
    if (!fault) return null;
    const scoped = fault.method !== undefined || fault.params !== undefined;
    if (scoped && !calls.some((call) => matchesCall(fault, call))) return null;
    if (this.#skipping > 0) {
      this.#skipping--;
      return null;
    }
    if (fault.probability !== undefined && this.random() >= fault.probability) return null;
    if (--this.#remaining <= 0) this.set(null);
    return fault;
  }
}

/** Per-call replacement for the call-level fault kinds; HTTP-level kinds return undefined. */
export function callOverride(fault: Fault | null, call: CallShape): CallOverride | undefined {
  if (!fault || !matchesCall(fault, call)) return undefined;
  if (fault.kind === "jsonrpc-error") {
    const { code, message, data } = fault;
    return { error: data === undefined ? { code, message } : { code, message, data } };
  }
  if (fault.kind === "malformed-result") return { result: fault.result ?? MALFORMED_RESULT };
  return undefined;
}
