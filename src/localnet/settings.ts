import { isAbsolute, resolve } from "node:path";
import { DEMO_FIXTURE_PATH } from "./fixture.js";
import { DEFAULT_LAMPORTS_PER_BYTE, DEFAULT_SLOT_MS, type LedgerOptions } from "./ledger.js";

/**
 * The environment variables `npm run localnet` reads (main.ts), each with
 * its default as docs/operations.md's localnet table lists it
 * (test/localnet/main.test.ts compares the two). The cluster's parameters
 * (rent rate, slot time) default to mainnet's values today; the demo reads
 * them too (ledgerOptionsFromEnv).
 */
export const LOCALNET_DEFAULTS = {
  LOCALNET_PORT: "8899",
  LOCALNET_HOST: "127.0.0.1",
  LOCALNET_LATENCY_MS: "0",
  LOCALNET_FIXTURE: "fixtures/demo.json",
  LOCALNET_LAMPORTS_PER_BYTE: String(DEFAULT_LAMPORTS_PER_BYTE),
  LOCALNET_SLOT_MS: String(DEFAULT_SLOT_MS),
} as const;

type Env = Readonly<Record<string, string | undefined>>;

export interface LocalnetSettings {
  readonly port: number;
  readonly host: string;
  readonly latencyMs: number;
  /** Absolute path of the fixture file loaded. */
  readonly fixturePath: string;
  readonly ledger: LedgerOptions;
}

export class LocalnetSettingError extends Error {
  override readonly name = "LocalnetSettingError";
}

function integer(env: Env, name: keyof typeof LOCALNET_DEFAULTS, min: number, max: number): number {
  const raw = env[name]?.trim() || LOCALNET_DEFAULTS[name];
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new LocalnetSettingError(`${name} must be an integer in [${min}, ${max}], got ${raw}`);
  }
  return value;
}

/** The cluster's parameters from `env`: LOCALNET_LAMPORTS_PER_BYTE (rent rate) and LOCALNET_SLOT_MS (slot time). */
export function ledgerOptionsFromEnv(env: Env): LedgerOptions {
  return {
    lamportsPerByte: integer(env, "LOCALNET_LAMPORTS_PER_BYTE", 1, 1_000_000),
    slotMs: integer(env, "LOCALNET_SLOT_MS", 1, 60_000),
  };
}

/**
 * The localnet's settings from `env`; `fixtureArgument` (the command's
 * first argument) wins over LOCALNET_FIXTURE. A relative fixture path is
 * taken from `cwd` (the package root under `npm run`). Throws
 * LocalnetSettingError naming the first bad setting.
 */
export function localnetSettings(env: Env, fixtureArgument: string | undefined, cwd: string): LocalnetSettings {
  const fixture = fixtureArgument?.trim() || env.LOCALNET_FIXTURE?.trim();
  return {
    port: integer(env, "LOCALNET_PORT", 0, 65535),
    host: env.LOCALNET_HOST?.trim() || LOCALNET_DEFAULTS.LOCALNET_HOST,
    latencyMs: integer(env, "LOCALNET_LATENCY_MS", 0, 600_000),
    fixturePath: fixture ? (isAbsolute(fixture) ? fixture : resolve(cwd, fixture)) : DEMO_FIXTURE_PATH,
    ledger: ledgerOptionsFromEnv(env),
  };
}
