import { type DestinationStream, type Logger as PinoLogger, pino } from "pino";
import type { Logger, RequestLine } from "../logger.js";

/** Bytes of log lines gathered before they are written. */
const LOG_BUFFER_BYTES = 4096;
/** Longest a gathered line waits for the buffer to fill. */
const LOG_FLUSH_MS = 100;

export interface NodeLog {
  readonly logger: PinoLogger & Required<Pick<Logger, "request">>;
  /** Writes what is buffered, synchronously: before the process exits. */
  flushSync(): void;
}

/**
 * The process logger of `npm start`: pino to stdout (`dest`: another file
 * descriptor or a path), written asynchronously so a request never waits for
 * stdout, and in blocks of ~4 KB (or every 100 ms, whichever first) rather
 * than one write per line: under load a write per request line cost several
 * percent of the gateway's CPU. pino flushes the buffer when the process
 * exits; the shutdown path also flushes.
 */
export function createNodeLog(level: string, dest: number | string = 1): NodeLog {
  const destination = pino.destination({
    dest,
    sync: false,
    minLength: LOG_BUFFER_BYTES,
    periodicFlush: LOG_FLUSH_MS,
  });
  const logger = pino({ level }, destination);
  return { logger: Object.assign(logger, { request: requestLineWriter(logger, destination) }), flushSync: () => destination.flushSync() };
}

const finite = (value: number): number | null => (Number.isFinite(value) ? value : null);

/**
 * The request line, one per answer, written as one template instead of
 * through pino's general path (which walks the fields and picks a
 * serializer and a stringifier for each): the same bytes, as pino lays them
 * out: level, time, the logger's bindings (pino's own rendering of pid and
 * hostname, read through the exported `pino.symbols`), the fields in order,
 * msg. Strings go through JSON.stringify, which writes these (ASCII ids,
 * methods, route patterns, error codes) as pino does. Made for the logger it
 * was created with: a child logger would inherit it with the parent's
 * bindings (the gateway makes none).
 */
function requestLineWriter(logger: PinoLogger, destination: DestinationStream): (line: RequestLine) => void {
  // pino's own rendering of the logger's bindings (`,"pid":…,"hostname":"…"`), read per line as pino does.
  const bindingsOf = (): string => (logger as unknown as Record<symbol, string>)[pino.symbols.chindingsSym] ?? "";
  const info = logger.levels.values.info!;
  return (line) => {
    if (!logger.isLevelEnabled("info")) return;
    const error = line.error === undefined ? "" : `,"error":${JSON.stringify(line.error)}`;
    destination.write(
      `{"level":${info},"time":${Date.now()}${bindingsOf()},"reqId":${JSON.stringify(line.reqId)},` +
        `"method":${JSON.stringify(line.method)},"route":${JSON.stringify(line.route)},"status":${finite(line.status)},` +
        `"ms":${finite(line.ms)},"rpcCalls":${finite(line.rpcCalls)},"rpcAccounts":${finite(line.rpcAccounts)},` +
        `"rpcOverride":${line.rpcOverride}${error},"msg":"request"}\n`,
    );
  };
}
