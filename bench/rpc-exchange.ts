import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { Agent, type Dispatcher, request } from "undici";
import { ByteBudget } from "../src/rpc/byte-budget.js";
import { parseMultipleAccounts } from "../src/rpc/results.js";
import { type PostRequest, type RpcTransport, createTransport } from "../src/rpc/transport/contract.js";
import { createFetchTransports } from "../src/rpc/transport/fetch.js";
import { createDispatchTransport } from "../src/rpc/transport/undici-exchange.js";
import { settingsFor } from "./settings.js";

// Gateway CPU per RPC exchange (post, read, parse, decode the accounts) for
// each way Node can send one, measured in this process against a canned
// JSON-RPC server in a child process, the variants interleaved round by
// round so that a busy machine slows them alike.
//   npx tsx bench/rpc-exchange.ts            # defaults below
//   RPCX_ROUNDS=7 RPCX_REQUESTS=2000 RPCX_CONCURRENCY=1,8 RPCX_ACCOUNTS=64 npx tsx bench/rpc-exchange.ts

const knobs = settingsFor("rpc");
const ROUNDS = knobs.rounds;
const REQUESTS = knobs.requests;
const CONCURRENCY = knobs.concurrency;
/** Accounts per answer, split over getMultipleAccounts calls of at most 100; ~165 bytes of data each (a name record). */
const ACCOUNTS = knobs.accounts;
/** Keys per request: three getMultipleAccounts calls share them (a c64 batch carries ~300, ~15 KB of JSON). */
const KEYS = knobs.keys;

function cannedAnswer(accounts: number): string {
  const calls = Math.max(1, Math.ceil(accounts / 100));
  const entries = [];
  for (let c = 0; c < calls; c++) {
    const value = [];
    for (let i = c * 100; i < Math.min(accounts, (c + 1) * 100); i++) {
      value.push(
        i % 5 === 4
          ? null
          : {
              data: [randomBytes(96 + 69).toString("base64"), "base64"],
              executable: false,
              lamports: 1_488_440, // rent-exempt for 165 bytes at 5,080 lamports a byte (mainnet today)
              owner: "namesLPneVptA9Z5rqUDD9tMTWEJwofgaYwp8cawRkX",
              rentEpoch: 18_446_744_073_709_551_615,
              space: 165,
            },
      );
    }
    entries.push({ jsonrpc: "2.0", id: c + 1, result: { context: { apiVersion: "2.2.0", slot: 1234 }, value } });
  }
  return JSON.stringify(entries);
}

const SERVER = `
const http = require("node:http");
const answer = Buffer.from(process.env.ANSWER);
http.createServer((req, res) => {
  req.resume();
  req.on("end", () => res.writeHead(200, { "content-type": "application/json", "content-length": answer.length }).end(answer));
}).listen(0, "127.0.0.1", function () { process.stdout.write(String(this.address().port) + "\\n"); });
`;

/** How the gateway sent RPC requests before: `request()` with an AbortSignal, the body as an async iterable. */
const requestPost =
  (dispatcher: Dispatcher): PostRequest =>
  async (url, body, signal) => {
    const response = await request(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body,
      dispatcher,
      signal,
    });
    const declared = Number(response.headers["content-length"]);
    return {
      status: response.statusCode,
      contentLength: Number.isSafeInteger(declared) ? declared : undefined,
      body: response.body,
      discard: () => response.body.dump(),
    };
  };

async function exchanges(transport: RpcTransport, count: number, concurrency: number): Promise<void> {
  let left = count;
  const worker = async () => {
    while (left-- > 0) {
      // A fresh body each time, as the gateway builds one per request.
      const answer = (await transport.post(JSON.stringify(calls))) as { result: unknown }[];
      for (const entry of answer)
        parseMultipleAccounts(entry.result, (entry.result as { value: unknown[] }).value.length);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const answer = cannedAnswer(ACCOUNTS);
const server = spawn(process.execPath, ["-e", SERVER], {
  env: { ...process.env, ANSWER: answer },
  stdio: ["ignore", "pipe", "inherit"],
});
const port = await new Promise<number>((resolve) =>
  server.stdout.once("data", (line: Buffer) => resolve(Number(line.toString()))),
);
const url = `http://127.0.0.1:${port}/`;
const dispatcher = new Agent({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 120_000, connections: 128 });
const limits = { timeoutMs: 10_000, maxResponseBytes: 8 << 20, budget: new ByteBudget(64 << 20) };
const variants: Record<string, RpcTransport> = {
  "undici request()": createTransport(url, limits, requestPost(dispatcher)),
  "undici dispatch, string body": createDispatchTransport(url, limits, dispatcher, (text) => text),
  "undici dispatch (gateway)": createDispatchTransport(url, limits, dispatcher),
  fetch: createFetchTransports().trusted(url, limits),
};
const keys = Array.from({ length: KEYS }, () => randomBytes(32).toString("base64").slice(0, 44));
const calls = [0, 1, 2].map((c) => ({
  jsonrpc: "2.0",
  id: c + 1,
  method: "getMultipleAccounts",
  params: [keys.slice((c * KEYS) / 3, ((c + 1) * KEYS) / 3), { encoding: "base64", commitment: "processed" }],
}));

console.log(
  `request ${JSON.stringify(calls).length} bytes, answer ${answer.length} bytes (${ACCOUNTS} accounts), ${REQUESTS} exchanges per variant and round, ${ROUNDS} rounds`,
);
for (const concurrency of CONCURRENCY) {
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
  for (const [, transport] of Object.entries(variants)) await exchanges(transport, 200, concurrency); // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    const order = Object.entries(variants);
    if (round % 2) order.reverse();
    for (const [name, transport] of order) {
      const before = process.cpuUsage();
      await exchanges(transport, REQUESTS, concurrency);
      const used = process.cpuUsage(before);
      samples[name]!.push((used.user + used.system) / REQUESTS);
    }
  }
  for (const [name, values] of Object.entries(samples)) {
    const spread = `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`;
    console.log(
      `c${concurrency}  ${name.padEnd(30)} CPU µs/exchange median ${median(values).toFixed(0).padStart(4)} (rounds ${spread})`,
    );
  }
}
await dispatcher.close();
server.kill();
