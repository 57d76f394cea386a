import { type Server, type ServerResponse, createServer } from "node:http";
import { base58 } from "@scure/base";
import type { AddressInfo } from "node:net";

/**
 * Answers an attacker-run JSON-RPC endpoint could send. The path of the
 * request names the shape (`/flat-arrays`, `/deep-nesting/7`, …: anything
 * after the shape only makes distinct endpoint URLs).
 */
export const HOSTILE_SHAPES = {
  /** 15 MB of `[[],[],…]` as the account list: millions of objects if parsed. */
  "flat-arrays": () =>
    chunks(`{"jsonrpc":"2.0","id":1,"result":{"context":{"slot":1},"value":[`, "[],", 15 << 20, "[]]}}"),
  /** 4 MB of `[` then as many `]`. */
  "deep-nesting": () => chunks(`{"jsonrpc":"2.0","id":1,"result":`, "[", 4 << 20, `${"]".repeat(4 << 20)}}`),
  /** A JSON-RPC error whose message and data are 1 MB each, with newlines and terminal escapes. */
  "huge-error": () => {
    const noise = "\n\u001b[31mFAKE LOG LINE level=error\u001b[0m ".repeat(2 ** 20 / 40);
    return [
      Buffer.from(
        JSON.stringify({ jsonrpc: "2.0", id: 1, error: { code: -32000, message: noise, data: { logs: noise } } }),
      ),
    ];
  },
  /** The same error, 12 MB of message: over any answer limit. */
  "huge-error-12mb": () => chunks(`{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"`, "x", 12 << 20, `"}}`),
  /** 50 MB of a syntactically plausible answer. */
  oversized: () => chunks(`{"jsonrpc":"2.0","id":1,"result":"`, "A", 50 << 20, `"}`),
  /** A few bytes, then one more every 200 ms, never finishing. */
  "slow-drip": () => "drip" as const,
  /** 2.75 MiB of a plausible answer, then nothing more until the client gives up: answer memory held. */
  "held-2.75mb": () => ({ held: chunks(`{"jsonrpc":"2.0","id":1,"result":"`, "A", 2.75 * 2 ** 20, "") }),
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

async function send(response: ServerResponse, body: readonly Buffer[], end = true): Promise<void> {
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
  if (end) response.end();
}

function drip(response: ServerResponse): void {
  response.writeHead(200, { "content-type": "application/json" });
  response.write(`{"jsonrpc":"2.0",`);
  const timer = setInterval(() => response.write(" "), 200);
  response.once("close", () => clearInterval(timer));
}

export async function startHostileRpc(): Promise<HostileRpc> {
  const bodies = new Map<string, readonly Buffer[] | "drip" | { readonly held: readonly Buffer[] }>();
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
    else if ("held" in body) void send(response, body.held, false);
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

/**
 * What a lying JSON-RPC server can list: `children` of any parent name,
 * token-account `mints` of any wallet (one token each, each mint distinct),
 * or top-level names `owned` by any wallet. Every other list is empty, every
 * account read answers "no account", and the tokenizer knows no NFT record,
 * so each listed item costs the gateway its own work (a key derivation, a
 * tokenizer scan) and nothing ends early.
 */
export type ListingKind = "children" | "mints" | "owned";

export interface ListingRpc {
  readonly origin: string;
  /**
   * Endpoint URL listing `count` items of `kind`; `tag` makes distinct endpoints. The list is
   * built here, before any request: building it takes this process's event loop for a while.
   */
  urlFor(kind: ListingKind, count: number, tag?: string | number): string;
  /** JSON-RPC calls received (each entry of a batch array counts), and HTTP requests, since the last reset. */
  readonly stats: { calls: number; httpRequests: number; bytesSent: number };
  resetStats(): void;
  close(): Promise<void>;
}

const NAME_PROGRAM = "namesLPneVptA9Z5rqUDD9tMTWEJwofgaYwp8cawRkX";
const TOKEN_PROGRAM = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
const ROOT_DOMAIN = "58PwtjSDuFHuUkYjH9BYnnQKHfwo9reZhC2zMJv9JPkx";

/** `count` distinct base58 keys, item i the same every time (bs58 of the 32-byte big-endian i + 1, salted). */
function listedKeys(kind: ListingKind, count: number): string[] {
  const keys: string[] = [];
  const bytes = new Uint8Array(32);
  bytes.fill(kind.length * 17 + 3);
  for (let i = 0; i < count; i++) {
    new DataView(bytes.buffer).setUint32(28, i + 1);
    keys.push(base58.encode(bytes));
  }
  return keys;
}

interface Filter {
  readonly memcmp?: { readonly offset: number };
}

/** Which list a getProgramAccounts call asks for, by program and filters. */
function listAsked(params: unknown): ListingKind | undefined {
  const [program, config] = Array.isArray(params) ? params : [];
  const filters = ((config as { filters?: Filter[] } | undefined)?.filters ?? []).map(
    (f) => f.memcmp?.offset ?? "size",
  );
  if (program === TOKEN_PROGRAM) return "mints";
  if (program !== NAME_PROGRAM) return undefined;
  if (filters.length === 1 && filters[0] === 0) return "children";
  if (filters.includes(32)) return "owned";
  return undefined;
}

export async function startListingRpc(): Promise<ListingRpc> {
  const stats = { calls: 0, httpRequests: 0, bytesSent: 0 };
  /** Serialized list values by kind and count: built once, each item as the scan's data slice asks. */
  const lists = new Map<string, string>();
  const listJson = (kind: ListingKind, count: number): string => {
    const id = `${kind}/${count}`;
    let json = lists.get(id);
    if (json === undefined) {
      const data =
        kind === "mints" ? (i: number) => Buffer.from(base58.decode(mintKeys[i]!)).toString("base64") : () => "";
      const keys = listedKeys(kind === "mints" ? "owned" : kind, count);
      const mintKeys = kind === "mints" ? listedKeys("mints", count) : [];
      json = `[${keys
        .map((key, i) => `{"pubkey":"${key}","account":{"data":["${data(i)}","base64"],"owner":"1"}}`)
        .join(",")}]`;
      lists.set(id, json);
    }
    return json;
  };
  const answer = (
    kind: ListingKind,
    count: number,
    call: { id?: unknown; method?: unknown; params?: unknown },
  ): string => {
    const id = JSON.stringify(call.id ?? null);
    const result = (value: string) => `{"jsonrpc":"2.0","id":${id},"result":${value}}`;
    switch (call.method) {
      case "getProgramAccounts": {
        const asked = listAsked(call.params);
        const value = asked === kind ? listJson(kind, count) : "[]";
        const withContext = (call.params as [unknown, { withContext?: boolean }?])[1]?.withContext;
        return result(withContext ? `{"context":{"slot":1},"value":${value}}` : value);
      }
      case "getMultipleAccounts": {
        const keys = ((call.params as unknown[])[0] as unknown[]) ?? [];
        return result(`{"context":{"slot":1},"value":[${keys.map(() => "null").join(",")}]}`);
      }
      case "getSlot":
        return result("1");
      default:
        return `{"jsonrpc":"2.0","id":${id},"error":{"code":-32602,"message":"Invalid param: not a listed account"}}`;
    }
  };
  const server: Server = createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on("data", (chunk: Buffer) => parts.push(chunk));
    request.on("end", () => {
      stats.httpRequests++;
      const [, kind, count] = (request.url ?? "/").split("/");
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(parts).toString());
      } catch {
        response.writeHead(400).end();
        return;
      }
      const calls = (Array.isArray(body) ? body : [body]) as { id?: unknown; method?: unknown; params?: unknown }[];
      stats.calls += calls.length;
      const answers = calls.map((call) => answer(kind as ListingKind, Number(count), call));
      const text = Array.isArray(body) ? `[${answers.join(",")}]` : answers[0]!;
      stats.bytesSent += Buffer.byteLength(text);
      response.writeHead(200, { "content-type": "application/json" });
      response.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    stats,
    urlFor(kind, count, tag) {
      listJson(kind, count);
      return `${origin}/${kind}/${count}${tag === undefined ? "" : `/${tag}`}`;
    },
    resetStats() {
      stats.calls = stats.httpRequests = stats.bytesSent = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
