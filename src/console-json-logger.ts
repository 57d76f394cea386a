import type { AppLogger } from "./http/deps.js";

const LEVELS = { error: 50, warn: 40, info: 30 } as const;

/** Errors become plain fields: JSON.stringify would write `{}` for them. */
function plain(fields: object): object {
  const err = (fields as { err?: unknown }).err;
  if (!(err instanceof Error)) return fields;
  return { ...fields, err: { type: err.name, message: err.message, stack: err.stack } };
}

/**
 * A logger for platforms without pino (Workers): one JSON object per line on
 * the console, with pino's level numbers and `msg`, so both read alike.
 */
export function consoleJsonLogger(minimum: keyof typeof LEVELS | "silent" = "info"): AppLogger {
  const floor = minimum === "silent" ? Infinity : LEVELS[minimum];
  const at = (level: keyof typeof LEVELS) =>
    LEVELS[level] < floor
      ? () => undefined
      : (fields: object, message: string) =>
          console.log(JSON.stringify({ level: LEVELS[level], time: Date.now(), ...plain(fields), msg: message }));
  return { info: at("info"), warn: at("warn"), error: at("error") };
}
