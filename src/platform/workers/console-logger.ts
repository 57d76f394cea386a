import type { Logger } from "../../logger.js";

const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity } as const;

/** Errors keep their type and message in a log line (JSON.stringify would drop both). */
function plain(fields: object): object {
  const err = (fields as { err?: unknown }).err;
  if (!(err instanceof Error)) return fields;
  return { ...fields, err: { type: err.name, message: err.message } };
}

/**
 * One JSON line per entry through `console.log`, with pino's field names
 * (`level`, `time`, `msg`), so the same log queries work on both platforms.
 */
export function createConsoleLogger(level: string): Logger {
  const threshold = LEVELS[level as keyof typeof LEVELS] ?? LEVELS.info;
  const at =
    (value: number) =>
    (fields: object, message?: string): void => {
      if (value < threshold) return;
      console.log(
        JSON.stringify({ level: value, time: Date.now(), ...plain(fields), ...(message && { msg: message }) }),
      );
    };
  return { debug: at(LEVELS.debug), info: at(LEVELS.info), warn: at(LEVELS.warn), error: at(LEVELS.error) };
}
