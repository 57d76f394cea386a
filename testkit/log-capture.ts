import { Writable } from "node:stream";
import { pino } from "pino";
import type { Logger } from "../src/logger.js";

/** A pino logger at `info` whose lines are kept in memory, for tests that read the request log. */
export interface LogCapture {
  readonly logger: Logger;
  /** Everything written since the last `clear`, as written. */
  text(): string;
  /** The lines written since the last `clear`, parsed. */
  lines(): Record<string, unknown>[];
  clear(): void;
}

export function captureLog(): LogCapture {
  let output = "";
  const sink = new Writable({
    write(chunk: Buffer, _, done) {
      output += chunk.toString();
      done();
    },
  });
  return {
    logger: pino({ level: "info" }, sink),
    text: () => output,
    lines: () =>
      output
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    clear: () => {
      output = "";
    },
  };
}
