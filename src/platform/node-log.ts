import { type Logger, pino } from "pino";

/** Bytes of log lines gathered before they are written. */
const LOG_BUFFER_BYTES = 4096;
/** Longest a gathered line waits for the buffer to fill. */
const LOG_FLUSH_MS = 100;

export interface NodeLog {
  readonly logger: Logger;
  /** Writes what is buffered, synchronously: before the process exits. */
  flushSync(): void;
}

/**
 * The process logger of `npm start`: pino to stdout, written asynchronously
 * so a request never waits for stdout, and in blocks of ~4 KB (or every
 * 100 ms, whichever first) rather than one write per line: under load a
 * write per request line cost several percent of the gateway's CPU. pino
 * flushes the buffer when the process exits; the shutdown path also flushes.
 */
export function createNodeLog(level: string): NodeLog {
  const destination = pino.destination({
    dest: 1,
    sync: false,
    minLength: LOG_BUFFER_BYTES,
    periodicFlush: LOG_FLUSH_MS,
  });
  return { logger: pino({ level }, destination), flushSync: () => destination.flushSync() };
}
