import { type IncomingMessage, STATUS_CODES, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { CallMatch } from "./call-match.js";
import { type Fault, FaultSwitch, callOverride } from "./faults.js";
import { type RequestBody, callsOf, parseBody, respond } from "./jsonrpc.js";
import type { Ledger } from "./ledger.js";
import { type CallCount, type LocalnetStats, StatsCounter } from "./stats.js";

export interface LocalnetOptions {
  readonly ledger: Ledger;
  /** 0 (the default) picks a free port. */
  readonly port?: number;
  readonly host?: string;
  /** Delay before every answer, to model a remote node. */
  readonly latencyMs?: number;
}

export interface Localnet {
  /** e.g. `http://127.0.0.1:8899` */
  readonly url: string;
  readonly port: number;
  readonly ledger: Ledger;
  /** A snapshot of the counters at the time of reading. */
  readonly stats: LocalnetStats;
  resetStats(): void;
  /** Counts the calls received from now on that match (e.g. one program's scan, by a text of its params). */
  watchCalls(match: CallMatch): CallCount;
  setLatency(ms: number): void;
  setFault(fault: Fault | null): void;
  /** Stops listening and drops every connection, including keep-alive and hanging ones. */
  close(): Promise<void>;
}

/** Agave's limit on a JSON-RPC request body. */
const MAX_BODY_BYTES = 50 * 1024 * 1024;
const JSON_TYPE = "application/json; charset=utf-8";
const TEXT_TYPE = "text/plain; charset=utf-8";

function send(
  res: ServerResponse,
  status: number,
  contentType: string,
  body: string,
  headers?: Readonly<Record<string, string>>,
): void {
  res.writeHead(status, { ...headers, "content-type": contentType, "content-length": Buffer.byteLength(body) });
  res.end(body);
}

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        resolve(null);
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

export async function startLocalnet(options: LocalnetOptions): Promise<Localnet> {
  const { ledger } = options;
  const stats = new StatsCounter();
  const faults = new FaultSwitch();
  const timers = new Set<NodeJS.Timeout>();
  let latencyMs = options.latencyMs ?? 0;

  const later = (action: () => void) => {
    if (latencyMs <= 0) return action();
    const timer = setTimeout(() => {
      timers.delete(timer);
      action();
    }, latencyMs);
    timers.add(timer);
  };

  /** Calls answered by an HTTP-level fault are received all the same. */
  const countCalls = (body: RequestBody) => {
    for (const call of callsOf(body)) stats.countCall(call.method, call.params);
  };

  const answerRpc = (res: ServerResponse, body: RequestBody) => {
    const fault = faults.armed ? faults.take(callsOf(body)) : null;
    if (fault?.kind === "hang") {
      countCalls(body);
      return;
    }
    if (fault?.kind === "http-status") {
      countCalls(body);
      const text = fault.body ?? `${STATUS_CODES[fault.status] ?? "Error"}\n`;
      return later(() => send(res, fault.status, TEXT_TYPE, text, fault.headers));
    }
    if (fault?.kind === "garbage") {
      countCalls(body);
      return later(() => send(res, 200, JSON_TYPE, fault.body ?? "<html><body>upstream garbage</body></html>"));
    }
    const text = respond(body, ledger, {
      onCall: (method, params) => stats.countCall(method, stats.watching ? JSON.stringify(params) : undefined),
      overrideCall: (method, params) =>
        fault ? callOverride(fault, { method, params: JSON.stringify(params) }) : undefined,
    });
    later(() => send(res, 200, JSON_TYPE, text ?? ""));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    res.once("finish", stats.arrived());
    if (req.method === "GET" && req.url?.split("?")[0] === "/health") {
      return later(() => send(res, 200, TEXT_TYPE, "ok"));
    }
    if (req.method !== "POST") {
      return send(res, 405, TEXT_TYPE, "Used HTTP Method is not allowed. POST or OPTIONS is required\n");
    }
    if (!req.headers["content-type"]?.toLowerCase().startsWith("application/json")) {
      const message = "Supplied content type is not allowed. Content-Type: application/json is required\n";
      return send(res, 415, TEXT_TYPE, message);
    }
    const text = await readBody(req);
    if (text === null) return send(res, 413, TEXT_TYPE, "Request body too large\n");
    answerRpc(res, parseBody(text));
  };

  const server = createServer({ keepAlive: true }, (req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) send(res, 500, TEXT_TYPE, "Internal Server Error\n");
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { address, port, family } = server.address() as AddressInfo;
  const host = family === "IPv6" ? `[${address}]` : address;
  let closing: Promise<void> | undefined;

  return {
    url: `http://${host}:${port}`,
    port,
    ledger,
    get stats() {
      return stats.snapshot();
    },
    resetStats: () => stats.reset(),
    watchCalls: (match) => stats.watch(match),
    setLatency: (ms) => {
      latencyMs = ms;
    },
    setFault: (fault) => faults.set(fault),
    close: () => {
      closing ??= new Promise<void>((resolve, reject) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
