import { connect, type Socket } from "node:net";

/**
 * A closed-loop HTTP/1.1 GET client over raw keep-alive sockets: each
 * connection sends a request, reads its whole answer, then sends the next.
 *
 * It exists because the load generator shares the machine with the servers
 * it measures. A general-purpose client costs tens of microseconds of CPU per
 * request; against a server answering in ~200 µs that is CPU taken from the
 * server, and when answers arrive in bursts (a batched RPC reply releases
 * dozens at once) the client's own queue adds to every latency it records.
 * Here a request is one write of a short latin1 string and an answer is one
 * header scan plus a byte comparison.
 */

export interface Answer {
  readonly status: number;
  /** The body bytes; valid only during the callback. */
  readonly body: Buffer;
}

export interface ConnectionHandlers {
  /** The path of the next request, or undefined to stop this connection. */
  next(): string | undefined;
  onAnswer(path: string, answer: Answer, elapsedMs: number, first: boolean): void;
  onError(error: Error): void;
}

const HEADER_END = Buffer.from("\r\n\r\n", "latin1");
const CONTENT_LENGTH = /\r\ncontent-length:[ \t]*(\d+)/i;
const CHUNKED = /\r\ntransfer-encoding:[^\r]*chunked/i;
const CLOSE = /\r\nconnection:[ \t]*close/i;
const CRLF = Buffer.from("\r\n", "latin1");

interface ParsedAnswer extends Answer {
  /** The server said it closes the connection after this answer. */
  readonly close: boolean;
  /** Bytes of `buffer` the answer took. */
  readonly length: number;
}

/** Parses one answer at the start of `buffer`, or gives undefined while it is incomplete. */
function parseAnswer(buffer: Buffer): ParsedAnswer | undefined {
  const headEnd = buffer.indexOf(HEADER_END);
  if (headEnd < 0) return undefined;
  const head = buffer.toString("latin1", 0, headEnd);
  const status = Number(head.slice(9, 12));
  const close = CLOSE.test(head);
  const bodyStart = headEnd + 4;
  const contentLength = CONTENT_LENGTH.exec(head);
  if (contentLength) {
    const end = bodyStart + Number(contentLength[1]);
    if (buffer.length < end) return undefined;
    return { status, body: buffer.subarray(bodyStart, end), close, length: end };
  }
  if (!CHUNKED.test(head)) {
    // No body framing: only bodiless answers (204, 304) are expected here.
    return { status, body: buffer.subarray(bodyStart, bodyStart), close, length: bodyStart };
  }
  const parts: Buffer[] = [];
  let at = bodyStart;
  for (;;) {
    const lineEnd = buffer.indexOf(CRLF, at);
    if (lineEnd < 0) return undefined;
    const size = Number.parseInt(buffer.toString("latin1", at, lineEnd), 16);
    const dataStart = lineEnd + 2;
    if (buffer.length < dataStart + size + 2) return undefined;
    // The last chunk; trailers are not sent by the servers measured here.
    if (size === 0) return { status, body: Buffer.concat(parts), close, length: dataStart + 2 };
    parts.push(buffer.subarray(dataStart, dataStart + size));
    at = dataStart + size + 2;
  }
}

/** One connection running until `next()` gives undefined or `close()` is called. */
export class LoadConnection {
  private socket: Socket | undefined;
  private pending: Buffer | undefined;
  private path = "";
  /** When the request in flight was written; 0 when none is. */
  private sentAt = 0;
  private first = true;
  private closed = false;

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly handlers: ConnectionHandlers,
  ) {}

  start(): void {
    this.open();
  }

  close(): void {
    this.closed = true;
    this.socket?.destroy();
  }

  /** Drops the connection if its request has waited longer than `timeoutMs` (a timer per request would cost more than the check). */
  expireIfOverdue(now: number, timeoutMs: number): boolean {
    if (this.sentAt === 0 || now - this.sentAt < timeoutMs) return false;
    this.sentAt = 0;
    this.socket?.destroy();
    return true;
  }

  private open(): void {
    if (this.closed) return;
    this.pending = undefined;
    this.first = true;
    const socket = connect({ host: this.host, port: this.port, noDelay: true });
    this.socket = socket;
    socket.on("connect", () => this.send());
    socket.on("data", (chunk: Buffer) => this.receive(chunk));
    socket.on("error", (error) => {
      if (!this.closed) this.handlers.onError(error);
    });
    socket.on("close", () => {
      if (this.socket !== socket || this.closed) return;
      if (this.sentAt !== 0) this.handlers.onError(new Error(`connection closed before the answer to ${this.path}`));
      this.sentAt = 0;
      // The server closed the connection (or it failed): open another and go on.
      setImmediate(() => this.open());
    });
  }

  private send(): void {
    if (this.closed) return;
    const path = this.handlers.next();
    if (path === undefined) {
      this.close();
      return;
    }
    this.path = path;
    this.sentAt = performance.now();
    this.socket!.write(`GET ${path} HTTP/1.1\r\nHost: ${this.host}:${this.port}\r\n\r\n`, "latin1");
  }

  private receive(chunk: Buffer): void {
    let buffer = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    let answer: ParsedAnswer | undefined;
    while ((answer = parseAnswer(buffer))) {
      const elapsedMs = performance.now() - this.sentAt;
      this.sentAt = 0;
      const first = this.first;
      this.first = false;
      this.handlers.onAnswer(this.path, answer, elapsedMs, first);
      buffer = buffer.subarray(answer.length);
      if (answer.close) {
        // The server reads no further request here; the close handler opens the next connection.
        this.socket!.destroy();
        return;
      }
      this.send();
      if (this.closed) return;
    }
    this.pending = buffer.length > 0 ? Buffer.from(buffer) : undefined;
  }
}
