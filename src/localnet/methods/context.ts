import type { Ledger } from "../ledger.js";
import type { Params } from "../params.js";

/** The Agave release this ledger answers as (`getVersion`, `context.apiVersion`). */
export const SOLANA_CORE_VERSION = "2.2.14";
export const FEATURE_SET = 3294202862;

export type MethodHandler = (params: Params, ledger: Ledger) => unknown;

/** `RpcResponse` wrapper used by every method that reports the slot it read at. */
export function withContext<T>(slot: number, value: T) {
  return { context: { apiVersion: SOLANA_CORE_VERSION, slot }, value };
}
