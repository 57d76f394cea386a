import { type Server, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Answers an attacker-run JSON-RPC endpoint could send. The path of the
 * request names the shape (`/flat-arrays`, `/deep-nesting/7`, …: anything
 * after the shape only makes distinct endpoint URLs).
 */
export const HOSTILE_SHAPES = {
  /** 15 MB of `[[],[],…]` as the account list: millions of objects if parsed. */
  "flat-arrays": () => chunks(`{"jsonrpc":"2.0","id":1,"result":{"context":{"slot":1},"value":[`, "[],", 15 << 20, "[]]}}"),
  /** 4 MB of `[` then as many `]`. */
  "deep-nesting": () => chunks(`{"jsonrpc":"2.0","id":1,"result":`, "[", 4 << 20, `${"]".repeat(4 << 20)}}`),
  /** A JSON-RPC error whose message and data are 1 MB each, with newlines and terminal escapes. */
  "huge-error": () => {
    const noise = "\n\u001b[31mFAKE LOG LINE level=error\u001b[0m ".repeat(2 ** 20 / 40);
    return [Buffer.from(JSON.stringify({ jsonrpc: "2.0", id: 1, error: { code: -32000, message: noise, data: { logs: noise } } }))];
  },
  /** The same error, 12 MB of message: over any answer limit. */
  "huge-error-12mb": () => chunks(`{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"`, "x", 12 << 20, `"}}`),
  /** 50 MB of a syntactically plausible answer. */
  oversized: () => chunks(`{"jsonrpc":"2.0","id":1,"result":"`, "A", 50 << 20, `"}`),
  /** A few bytes, then one more every 200 ms, never finishing. */
  "slow-drip": () => "drip" as const,
  /** Valid JSON-RPC, wrong result shape. */
  "wrong-shape": () => [Buffer.from(`{"jsonrpc":"2.0","id":1,"result":{"value":"nope"}}`)],
} as const;

export type HostileShape = keyof typeof HOSTILE_SHAPES;

const CHUNK = 64 * 1024;

/** `head`, `unit` repeated to about `bytes`, `tail`, as reusable 64 KiB chunks (the server stays small). */
function chunks(head: string, unit: string, bytes: number, tail: string): Buffer[] {
  const block = Buffer.from(unit.repeat(Math.ceil(CHUNK / unit.length)));
  const count = Math.ceil(bytes / block.length);
  return [Buffer.from(head), ...Array<Buffer>(count).fill(block), Buffer.from(tail)];
}

export interface HostileRpc {
  readonly origin: string;
  /** Endpoint URL answering with `shape`; `tag` makes distinct endpoints for the same shape. */
  urlFor(shape: HostileShape, tag?: string | number): string;
  /** HTTP requests received, per shape. */
  readonly received: Map<string, number>;
  close(): Promise<void>;
}

async function send(response: ServerResponse, body: readonly Buffer[]): Promise<void> {
  response.writeHead(200, { "content-type": "application/json" });
  for (const chunk of body) {
    if (response.destroyed) return;
    if (!response.write(chunk)) {
      // Whichever comes first; the other listener goes too, or one per wait would pile up on the response.
      await new Promise<void>((resolve) => {
        const done = () => {
          response.off("drain", done);
          response.off("close", done);
          resolve();
        };
        response.once("drain", done);
        response.once("close", done);
      });
    }
  }
  response.end();
}

function drip(response: ServerResponse): void {
  response.writeHead(200, { "content-type": "application/json" });
  response.write(`{"jsonrpc":"2.0",`);
  const timer = setInterval(() => response.write(" "), 200);
  response.once("close", () => clearInterval(timer));
}

export async function startHostileRpc(): Promise<HostileRpc> {
  const bodies = new Map<string, readonly Buffer[] | "drip">();
  const received = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    request.resume();
    const shape = (request.url ?? "/").split("/")[1] as HostileShape;
    received.set(shape, (received.get(shape) ?? 0) + 1);
    const make = HOSTILE_SHAPES[shape];
    if (!make) {
      response.writeHead(404).end();
      return;
    }
    let body = bodies.get(shape);
    if (!body) bodies.set(shape, (body = make()));
    if (body === "drip") drip(response);
    else void send(response, body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    received,
    urlFor: (shape, tag) => `${origin}/${shape}${tag === undefined ? "" : `/${tag}`}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
