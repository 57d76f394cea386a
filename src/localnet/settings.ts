import { DEFAULT_LAMPORTS_PER_BYTE, DEFAULT_SLOT_MS, type LedgerOptions } from "./ledger.js";

/**
 * The cluster parameters a localnet process takes from its environment
 * (src/localnet/main.ts, src/demo.ts), each defaulting to mainnet's value today:
 * LOCALNET_LAMPORTS_PER_BYTE (rent rate, default DEFAULT_LAMPORTS_PER_BYTE) and
 * LOCALNET_SLOT_MS (slot duration, default DEFAULT_SLOT_MS).
 */
export function ledgerOptionsFromEnv(env: Readonly<Record<string, string | undefined>>): LedgerOptions {
  return {
    lamportsPerByte: positiveInteger(env, "LOCALNET_LAMPORTS_PER_BYTE", DEFAULT_LAMPORTS_PER_BYTE),
    slotMs: positiveInteger(env, "LOCALNET_SLOT_MS", DEFAULT_SLOT_MS),
  };
}

function positiveInteger(env: Readonly<Record<string, string | undefined>>, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got ${raw}`);
  return value;
}
