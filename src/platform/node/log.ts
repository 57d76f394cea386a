import { openSync, writeSync } from "node:fs";
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

type Destination = ReturnType<typeof pino.destination>;

export interface NodeLog {
  readonly logger: PinoLogger & Required<Pick<Logger, "request">>;
  /**
   * Writes what is gathered and resolves once every line logged before the call has been written, in the
   * order it was logged: true; false after `timeoutMs` with some still unwritten.
   */
  flush(timeoutMs?: number): Promise<boolean>;
  /**
   * For a process about to exit: `flush`, and should the destination not take it all within `timeoutMs`
   * (a pipe nobody reads), the rest is dropped, so that neither this log nor pino's own exit handler waits
   * on that destination at the exit. A write already in libuv's thread pool still does: the process ends
   * once it returns (for a pipe, once its reader reads or closes it).
   */
  end(timeoutMs?: number): Promise<void>;
  /**
   * Writes what is gathered synchronously: for the process's `exit`, where nothing asynchronous runs any more.
   * In order when no block is being written; a block whose write is in flight at that instant is the thread
   * pool's, and what follows it may land before it. Paths that can wait use `end`.
   */
  flushSync(): void;
}

/** Longest `flush` and `end` wait for the destination by default. */
const FLUSH_TIMEOUT_MS = 2000;

/**
 * The process logger of `npm start`: pino to stdout (`dest`: another file
 * descriptor or a path), written asynchronously so a request never waits for
 * stdout, and in blocks of ~32 KB (or every 100 ms, whichever first) rather
 * than one write per line: under load a write per request line cost several
 * percent of the gateway's CPU. Whatever is gathered is written when the
 * process exits; the shutdown path waits for it with `end`.
 */
export function createNodeLog(level: string, dest: number | string = 1): NodeLog {
  // A descriptor of its own for a path: the destination is ready at once, and `flushSync` can write to it.
  const fd = typeof dest === "number" ? dest : openSync(dest, "a");
  // minLength 0: sonic-boom writes each block as it comes (or queues it behind the write in progress).
  const destination = pino.destination({ dest: fd, sync: false, minLength: 0 });
  const blocks = new BlockWriter(destination);
  const logger = pino({ level }, blocks);
  // Set once `end` gave up on the destination: what was left is dropped.
  let dropped = false;
  const flushSync = () => {
    if (dropped) return;
    const block = blocks.take();
    if (blocks.unwritten === 0) {
      // Nothing queued or in flight: written here, synchronously, and so in order.
      if (block !== undefined) writeAllSync(fd, block);
      return;
    }
    // sonic-boom's flushSync writes its queue at once, even beside a write in flight: only at exit. It
    // reports none of it written, so the count stops meaning anything.
    if (block !== undefined) blocks.hand(block);
    blocks.uncounted();
    destination.flushSync();
  };
  const flush = (timeoutMs = FLUSH_TIMEOUT_MS) => {
    blocks.flush();
    return blocks.written(timeoutMs);
  };
  const end = async (timeoutMs = FLUSH_TIMEOUT_MS) => {
    if (dropped || (await flush(timeoutMs))) return;
    dropped = true;
    blocks.drop();
    // Disabled as pino disables a destination whose reader went away (EPIPE): pino's exit handler calls this
    // `flushSync`, which would retry a full pipe for ever. Not destroyed: that would close the descriptor
    // under the write still in flight, whose retry could then land in a file opened later with its number.
    destination.flushSync = () => undefined;
    destination.write = () => true;
    // What the abandoned write still reports is not news.
    destination.on("error", () => undefined);
  };
  flushedAtExit(flushSync);
  return { logger: Object.assign(logger, { request: requestLineWriter(logger, blocks) }), flush, end, flushSync };
}

/** What each log writes when the process exits: one `exit` listener, however many logs a process makes. */
const atExit = new Set<() => void>();

function flushedAtExit(flushSync: () => void): void {
  if (atExit.size === 0) process.on("exit", () => atExit.forEach((flush) => flush()));
  atExit.add(flushSync);
}

/** Writes `text` whole, synchronously: a short write continues; a full non-blocking pipe is waited for, briefly. */
function writeAllSync(fd: number, text: string): void {
  let bytes = Buffer.from(text);
  for (let busy = 0; bytes.length > 0;) {
    let written = 0;
    try {
      written = writeSync(fd, bytes);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "EAGAIN" && code !== "EBUSY") return;
    }
    if (written > 0) bytes = bytes.subarray(written);
    else if (++busy > 1000) return;
    else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
  }
}

/**
 * Gathers lines and hands them to the destination joined, ~32 KB at a time.
 * The gathering is done here rather than by sonic-boom's own `minLength`
 * because sonic-boom measures the byte length of its pending string on every
 * write: with a block gathering there, each line cost a copy of the block
 * (~6 KB allocated per request line in `npm run bench -- alloc`). It counts
 * the bytes it hands over and the bytes the destination reports written, so
 * that a flush knows when all of it has landed.
 */
class BlockWriter implements DestinationStream {
  private lines: string[] = [];
  private length = 0;
  private handed = 0;
  private landed = 0;
  /** Cleared once sonic-boom has written its queue itself (flushSync): its counts no longer tell. */
  private counted = true;
  private readonly timer: ReturnType<typeof setInterval>;
  /** Flushes waiting, each for the bytes landed to cover what was handed before it. */
  private readonly waiting = new Set<{ readonly upTo: number; readonly settle: (all: boolean) => void }>();

  constructor(private readonly destination: Destination) {
    this.timer = setInterval(() => this.flush(), LOG_FLUSH_MS).unref();
    destination.on("write", (bytes: number) => {
      this.landed += bytes;
      for (const flush of this.waiting) if (this.landed >= flush.upTo) flush.settle(true);
    });
  }

  /** Bytes handed to the destination that it has not reported written. */
  get unwritten(): number {
    return this.handed - this.landed;
  }

  write(line: string): void {
    this.lines.push(line);
    // Characters, not bytes: only a threshold.
    this.length += line.length;
    if (this.length >= LOG_BUFFER_BYTES) this.flush();
  }

  flush(): void {
    const block = this.take();
    if (block !== undefined) this.hand(block);
  }

  /** Gathers nothing more and hands nothing more over: the destination was given up on. */
  drop(): void {
    clearInterval(this.timer);
    this.lines = [];
    this.length = 0;
    this.write = () => undefined;
  }

  /** The gathered lines as one block, no longer gathered. */
  take(): string | undefined {
    if (this.lines.length === 0) return undefined;
    const block = this.lines.length === 1 ? this.lines[0]! : this.lines.join("");
    this.lines = [];
    this.length = 0;
    return block;
  }

  hand(block: string): void {
    this.handed += Buffer.byteLength(block);
    this.destination.write(block);
  }

  uncounted(): void {
    this.counted = false;
    for (const flush of this.waiting) flush.settle(false);
  }

  /**
   * Settles true once everything handed over so far is written (what is handed later does not hold it), or
   * false after `timeoutMs` (a destination that failed reports nothing more written).
   */
  written(timeoutMs: number): Promise<boolean> {
    const upTo = this.handed;
    if (!this.counted) return Promise.resolve(false);
    if (this.landed >= upTo) return Promise.resolve(true);
    return new Promise((resolve) => {
      const flush = {
        upTo,
        settle: (all: boolean) => {
          clearTimeout(timer);
          this.waiting.delete(flush);
          resolve(all);
        },
      };
      const timer = setTimeout(() => flush.settle(false), timeoutMs);
      this.waiting.add(flush);
    });
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
