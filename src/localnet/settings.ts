import { isAbsolute, resolve } from "node:path";
import { DEMO_FIXTURE_PATH } from "./fixture.js";

/**
 * The environment variables `npm run localnet` reads (main.ts), each with
 * its default as the README's localnet table lists it
 * (test/localnet/main.test.ts compares the two).
 */
export const LOCALNET_DEFAULTS = {
  LOCALNET_PORT: "8899",
  LOCALNET_HOST: "127.0.0.1",
  LOCALNET_LATENCY_MS: "0",
  LOCALNET_FIXTURE: "fixtures/demo.json",
} as const;

export interface LocalnetSettings {
  readonly port: number;
  readonly host: string;
  readonly latencyMs: number;
  /** Absolute path of the fixture file loaded. */
  readonly fixturePath: string;
}

export class LocalnetSettingError extends Error {
  override readonly name = "LocalnetSettingError";
}

function integer(env: Readonly<Record<string, string | undefined>>, name: keyof typeof LOCALNET_DEFAULTS, max: number): number {
  const raw = env[name]?.trim() || LOCALNET_DEFAULTS[name];
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > max) throw new LocalnetSettingError(`${name} must be an integer in [0, ${max}], got ${raw}`);
  return value;
}

/**
 * The localnet's settings from `env`; `fixtureArgument` (the command's
 * first argument) wins over LOCALNET_FIXTURE. A relative fixture path is
 * taken from `cwd` (the package root under `npm run`). Throws
 * LocalnetSettingError naming the first bad setting.
 */
export function localnetSettings(env: Readonly<Record<string, string | undefined>>, fixtureArgument: string | undefined, cwd: string): LocalnetSettings {
  const fixture = fixtureArgument?.trim() || env.LOCALNET_FIXTURE?.trim();
  return {
    port: integer(env, "LOCALNET_PORT", 65535),
    host: env.LOCALNET_HOST?.trim() || LOCALNET_DEFAULTS.LOCALNET_HOST,
    latencyMs: integer(env, "LOCALNET_LATENCY_MS", 600_000),
    fixturePath: fixture ? (isAbsolute(fixture) ? fixture : resolve(cwd, fixture)) : DEMO_FIXTURE_PATH,
  };
}
