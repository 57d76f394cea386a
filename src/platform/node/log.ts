import { type DestinationStream, type Logger as PinoLogger, pino } from "pino";
import type { Logger, RequestLine } from "../../logger.js";
import { httpMethodLabel } from "../../telemetry.js";

/**
 * Bytes of log lines gathered before they are written. Each write costs the
 * event loop a hand-off to libuv's thread pool (~100 µs of main-thread CPU
 * per write in a CPU profile on a 2-vCPU VM, whatever its size), so blocks
 * are large: ~140 request lines each.
 */
const LOG_BUFFER_BYTES = 32 * 1024;
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
 * stdout, and in blocks of ~32 KB (or every 100 ms, whichever first) rather
 * than one write per line: under load a write per request line cost several
 * percent of the gateway's CPU. Whatever is gathered is written when the
 * process exits; the shutdown path also flushes.
 */
export function createNodeLog(level: string, dest: number | string = 1): NodeLog {
  // minLength 0: sonic-boom writes each block as it comes (or queues it behind the write in progress).
  const destination = pino.destination({ dest, sync: false, minLength: 0 });
  const blocks = new BlockWriter(destination);
  const logger = pino({ level }, blocks);
  const flushSync = () => {
    blocks.flush();
    destination.flushSync();
  };
  flushedAtExit(flushSync);
  return { logger: Object.assign(logger, { request: requestLineWriter(logger, blocks) }), flushSync };
}

/** What each log writes when the process exits: one `exit` listener, however many logs a process makes. */
const atExit = new Set<() => void>();

function flushedAtExit(flushSync: () => void): void {
  if (atExit.size === 0) process.on("exit", () => atExit.forEach((flush) => flush()));
  atExit.add(flushSync);
}

/**
 * Gathers lines and hands them to the destination joined, ~32 KB at a time.
 * The gathering is done here rather than by sonic-boom's own `minLength`
 * because sonic-boom measures the byte length of its pending string on every
 * write: with a block gathering there, each line cost a copy of the block
 * (~6 KB allocated per request line in `npm run bench -- alloc`).
 */
class BlockWriter implements DestinationStream {
  private lines: string[] = [];
  private length = 0;

  constructor(private readonly destination: DestinationStream) {
    setInterval(() => this.flush(), LOG_FLUSH_MS).unref();
  }

  write(line: string): void {
    this.lines.push(line);
    // Characters, not bytes: only a threshold.
    this.length += line.length;
    if (this.length >= LOG_BUFFER_BYTES) this.flush();
  }

  flush(): void {
    if (this.lines.length === 0) return;
    const block = this.lines.length === 1 ? this.lines[0]! : this.lines.join("");
    this.lines = [];
    this.length = 0;
    this.destination.write(block);
  }
}

const finite = (value: number): number | null => (Number.isFinite(value) ? value : null);

const renderMethodAndRoute = (method: string, route: string): string =>
  `,"method":${JSON.stringify(method)},"route":${JSON.stringify(route)},"status":`;

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
  // `,"method":…,"route":…,"status":` rendered once per route pattern (never a raw path) and known method;
  // another method token is rendered each time, so what is kept stays bounded whatever clients send.
  const fragments = new Map<string, Map<string, string>>();
  const methodAndRoute = (method: string, route: string): string => {
    if (httpMethodLabel(method) !== method) return renderMethodAndRoute(method, route);
    let byMethod = fragments.get(route);
    if (byMethod === undefined) fragments.set(route, (byMethod = new Map()));
    let fragment = byMethod.get(method);
    if (fragment === undefined) {
      fragment = renderMethodAndRoute(method, route);
      byMethod.set(method, fragment);
    }
    return fragment;
  };
  return (line) => {
    if (!logger.isLevelEnabled("info")) return;
    const error = line.error === undefined ? "" : `,"error":${JSON.stringify(line.error)}`;
    const bulk =
      line.names === undefined
        ? ""
        : `,"names":${finite(line.names)},"distinctNames":${finite(line.distinctNames ?? 0)},"items":${JSON.stringify(line.items ?? {})}` +
          `,"jsonRpcCalls":${finite(line.jsonRpcCalls ?? 0)}`;
    destination.write(
      `{"level":${info},"time":${Date.now()}${bindingsOf()},"reqId":${JSON.stringify(line.reqId)}` +
        `${methodAndRoute(line.method, line.route)}${finite(line.status)},` +
        `"ms":${finite(line.ms)},"rpcCalls":${finite(line.rpcCalls)},"rpcAccounts":${finite(line.rpcAccounts)},` +
        `"rpcOverride":${line.rpcOverride}${error}${bulk},"msg":"request"}\n`,
    );
  };
}
