import { spawn } from "node:child_process";
import net from "node:net";
import { fileURLToPath } from "node:url";
import { withHardDescriptorLimit } from "./descriptor-limit.js";
import type { FloodOrder, FloodReport } from "./slow-body-flood.js";

/**
 * The slow-body attacks on a route that reads a request body: a client that
 * sends a request's headers and then its body never (`silent`), a byte at a
 * time (`dripping`), or declares a body over the route's limit and sends a
 * few bytes of it (`oversized`). The client never closes a connection
 * itself (until `destroy`): whether the server closes it, and when, is
 * what it measures.
 */
export type SlowBodyKind = "silent" | "dripping" | "oversized";

export interface SlowBodyOptions {
  readonly kind: SlowBodyKind;
  /** Default `/resolve`. */
  readonly path?: string;
  /** The declared `Content-Length`: default 40 (`oversized`: 300,000). */
  readonly declaredLength?: number;
  /** `dripping`: one byte every this many ms (default 1,000); the declared length is never reached. */
  readonly dripEveryMs?: number;
  /** More header lines, e.g. `Expect: 100-continue`. */
  readonly headers?: readonly string[];
  /** Whether the client reads what the server sends (default true); false: its receive buffer only. */
  readonly reads?: boolean;
}

export interface SlowBody {
  /** Resolves once connected and the headers (and the first bytes of an `oversized` body) are written. */
  readonly sent: Promise<void>;
  /** What the server wrote, as latin1 text (empty when `reads` is false). */
  received(): string;
  /** The status of the first answer, 0 before one (100 Continue included). */
  status(): number;
  /** Resolves when the server half-closed the connection (its FIN read; never while the client does not read), ms since the headers were sent. */
  readonly ended: Promise<number>;
  /**
   * Resolves when the connection is gone (ms since the headers were sent):
   * the client keeps its own half open (`allowHalfOpen`), so this is the
   * server resetting it, which a `dripping` client learns at its next byte.
   */
  readonly closed: Promise<number>;
  /** Whether the connection is still open on the client's side. */
  open(): boolean;
  destroy(): void;
}

/** One slow-body connection to `url` (loopback). */
export function openSlowBody(url: string, options: SlowBodyOptions): SlowBody {
  const { hostname, port } = new URL(url);
  const declared = options.declaredLength ?? (options.kind === "oversized" ? 300_000 : 40);
  const head =
    `POST ${options.path ?? "/resolve"} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${declared}\r\n${(options.headers ?? []).map((line) => `${line}\r\n`).join("")}\r\n`;
  const socket = net.connect({ port: Number(port), host: hostname, allowHalfOpen: true });
  let received = "";
  let sentAt = 0;
  let drip: NodeJS.Timeout | undefined;
  let open = true;
  const ended = new Promise<number>((resolve) => socket.once("end", () => resolve(performance.now() - sentAt)));
  const closed = new Promise<number>((resolve) => {
    socket.once("close", () => {
      open = false;
      clearInterval(drip);
      resolve(performance.now() - sentAt);
    });
  });
  socket.on("error", () => undefined);
  if (options.reads === false) socket.pause();
  else socket.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")));
  const sent = new Promise<void>((resolve, reject) => {
    socket.once("error", reject);
    socket.once("connect", () => {
      sentAt = performance.now();
      socket.write(head);
      if (options.kind === "oversized") socket.write("{".padEnd(10, " "));
      if (options.kind === "dripping") {
        let dripped = 0;
        drip = setInterval(() => {
          // One byte short of the declared length: the body never completes.
          if (dripped < declared - 1 && socket.writable) socket.write(dripped++ === 0 ? "{" : " ");
        }, options.dripEveryMs ?? 1000);
      }
      resolve();
    });
  });
  return {
    sent,
    received: () => received,
    status: () => Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0),
    ended,
    closed,
    open: () => open,
    destroy() {
      clearInterval(drip);
      socket.destroy();
    },
  };
}

/**
 * `count` slow-body connections, opened `batch` at a time, and no longer
 * than `withinMs` in all: fewer than `count` when it runs out.
 *
 * A connection counts as connected once the kernel completed its handshake,
 * before the server accepted it: a batch larger than the server's accept
 * queue (Node's default backlog is 511), or one sent while the last is still
 * waiting there, overflows it, and the kernel drops the handshake's last ACK;
 * the client believes it is connected while the server retransmits its
 * SYN-ACK 1, 2, 4, 8 and 16 s later and then forgets it. With `paceUnanswered`,
 * each batch waits (up to `paceMs`) until at most that many connections
 * opened have no answer: the server has accepted and answered the batch
 * before, so what is measured is the server, not the kernel's queue.
 */
export async function openSlowBodies(
  url: string,
  count: number,
  options: SlowBodyOptions,
  {
    batch = 500,
    withinMs = Infinity,
    paceUnanswered,
    paceMs = 10_000,
  }: {
    readonly batch?: number;
    readonly withinMs?: number;
    readonly paceUnanswered?: number;
    readonly paceMs?: number;
  } = {},
): Promise<SlowBody[]> {
  const opened: SlowBody[] = [];
  const started = performance.now();
  while (opened.length < count && performance.now() - started < withinMs) {
    if (paceUnanswered !== undefined) await answered(opened, paceUnanswered, paceMs);
    const next = Array.from({ length: Math.min(batch, count - opened.length) }, () => openSlowBody(url, options));
    opened.push(...next);
    await Promise.all(next.map((body) => body.sent.catch(() => undefined)));
  }
  return opened;
}

/** Resolves once at most `unanswered` of `bodies` have no answer, or after `withinMs`. */
export async function answered(bodies: readonly SlowBody[], unanswered: number, withinMs: number): Promise<void> {
  const started = performance.now();
  while (bodies.filter((body) => body.status() === 0).length > unanswered && performance.now() - started < withinMs) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * `openSlowBodies` from a process of its own whose soft limit on descriptors
 * is raised to the hard limit (a test process may have 1,024): see
 * testkit/slow-body-flood.ts. Resolves with its report once it has exited.
 */
export function floodInChild(order: FloodOrder): Promise<FloodReport> {
  const script = fileURLToPath(new URL("./slow-body-flood.ts", import.meta.url));
  const [command, args] = withHardDescriptorLimit([process.execPath, "--import", "tsx", script, JSON.stringify(order)]);
  // The child reports the limit it got: `ulimit -n` in the same shell, after raising it.
  args[1] = args[1]!.replace('exec "$@"', 'FLOOD_DESCRIPTOR_LIMIT="$(ulimit -n)" exec "$@"');
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  let errors = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => {
      if (code === 0) resolve(JSON.parse(output.trim().split("\n").pop()!) as FloodReport);
      else reject(new Error(`flood client exited ${code}: ${errors.slice(-2000)}`));
    });
  });
}
