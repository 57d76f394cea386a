import { execFileSync, spawn } from "node:child_process";
import { pbkdf2, pbkdf2Sync } from "node:crypto";
import { constants, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RequestLine } from "../../../src/logger.js";
import { createNodeLog } from "../../../src/platform/node/log.js";
import { compiledEntry } from "../../../testkit/child-gateway.js";
import { createRng } from "../../../testkit/rng.js";

const dir = mkdtempSync(join(tmpdir(), "node-log-"));
// `npm start`'s build, for the process test: compiled before it (once per test run), outside its timeout.
beforeAll(() => void compiledEntry(), 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const LINES: RequestLine[] = [
  {
    reqId: "0b6c6a3e-8d1f-4b7a-9c3e-2f1a5d7e9b10",
    method: "GET",
    route: "/resolve/:domain",
    status: 200,
    ms: 1.23,
    rpcCalls: 2,
    rpcAccounts: 5,
    rpcOverride: false,
  },
  {
    reqId: 'q"uo\\te',
    method: "PROPFIND",
    route: "unmatched",
    status: 404,
    ms: 0,
    rpcCalls: 0,
    rpcAccounts: 0,
    rpcOverride: true,
  },
  {
    reqId: "trace-1",
    method: "GET",
    route: "/records-v2/:domain",
    status: 502,
    ms: 1500.5,
    rpcCalls: 1,
    rpcAccounts: 100,
    rpcOverride: false,
    error: "RPC_HTTP_STATUS",
  },
];

/** Each line written through pino's general path and through the request writer, time set aside. */
async function writtenBothWays(level: string, line: RequestLine): Promise<[string, string]> {
  const path = join(dir, `${level}-${Math.random()}.log`);
  const log = createNodeLog(level, openSync(path, "w"));
  log.logger.info({ ...line }, "request");
  log.logger.request(line);
  expect(await log.flush()).toBe(true);
  const written = readFileSync(path, "utf8");
  const [viaPino = "", viaWriter = ""] = written.replace(/"time":\d+/g, '"time":0').split(/(?<=\n)/);
  return [viaPino, viaWriter];
}

/** Occupies every thread of libuv's pool for about `ms`: a file write handed to it waits behind them. */
function busyThreadPool(ms: number): Promise<unknown> {
  const threads = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
  const started = performance.now();
  pbkdf2Sync("warm", "salt", 1000, 32, "sha512");
  const iterations = Math.ceil((1000 * ms) / Math.max(performance.now() - started, 0.01));
  return Promise.all(
    Array.from({ length: threads }, () => promisify(pbkdf2)("busy", "salt", iterations, 32, "sha512")),
  );
}

describe("createNodeLog: request lines", () => {
  it.each(LINES.map((line) => [line.status, line] as const))("writes pino's bytes (status %s)", async (_, line) => {
    const [viaPino, viaWriter] = await writtenBothWays("info", line);
    expect(viaPino).toMatch(/^\{"level":30,"time":0,"pid":\d+,"hostname":.*,"msg":"request"\}\n$/);
    expect(viaWriter).toBe(viaPino);
  });

  it("writes nothing below its level", async () => {
    expect(await writtenBothWays("warn", LINES[0]!)).toEqual(["", ""]);
  });

  // Over what the writer is given: ids as the frame admits them (printable ASCII, src/http/answer/request-id.ts),
  // method tokens, route patterns and failure codes (ASCII).
  it("writes pino's bytes for 300 generated lines", async () => {
    const rng = createRng(3);
    const draw = (n: number) => rng.int(0, n - 1);
    const text = () => Array.from({ length: 1 + draw(40) }, () => String.fromCharCode(0x21 + draw(0x5e))).join("");
    for (let i = 0; i < 300; i++) {
      const line: RequestLine = {
        reqId: text(),
        method: ["GET", "HEAD", "OPTIONS", "PROPFIND", text()][draw(5)]!,
        route: ["/resolve/:domain", "/records-v2/:domain", "unmatched", text()][draw(4)]!,
        status: [200, 404, 422, 429, 500, 502, 503][draw(7)]!,
        ms: [0, 0.01, 1.23, 1500.5, draw(1e6) / 100, 1e21, 2 ** -20][draw(7)]!,
        rpcCalls: draw(50),
        rpcAccounts: draw(5000),
        rpcOverride: draw(2) === 1,
      };
      if (draw(2) === 1) line.error = ["OVERLOADED", "RPC_TIMEOUT", "DOMAIN_NOT_FOUND", text()][draw(4)]!;
      const [viaPino, viaWriter] = await writtenBothWays("info", line);
      expect(viaWriter, JSON.stringify(line)).toBe(viaPino);
    }
  });

  // One writer renders a route's method and pattern once and reuses it: lines that repeat and alternate them
  // (and method tokens it does not keep) are each still pino's.
  it("writes pino's bytes for 400 lines through one log, routes and methods repeating", async () => {
    const path = join(dir, `repeating-${Math.random()}.log`);
    const log = createNodeLog("info", openSync(path, "w"));
    const methods = ["GET", "HEAD", "OPTIONS", "POST", "PROPFIND", "M-SEARCH", "get"];
    const routes = ["/resolve/:domain", "/records-v2/:domain", "unmatched", '/odd"\\route'];
    for (let i = 0; i < 200; i++) {
      const line: RequestLine = {
        reqId: `id-${i}`,
        method: methods[(i * 5) % methods.length]!,
        route: routes[(i * 3) % routes.length]!,
        status: i % 2 === 0 ? 200 : 404,
        ms: i / 7,
        rpcCalls: i % 3,
        rpcAccounts: i % 11,
        rpcOverride: i % 4 === 0,
      };
      log.logger.info({ ...line }, "request");
      log.logger.request(line);
    }
    expect(await log.flush()).toBe(true);
    const lines = readFileSync(path, "utf8")
      .replace(/"time":\d+/g, '"time":0')
      .split(/(?<=\n)/);
    expect(lines).toHaveLength(400);
    for (let i = 0; i < 400; i += 2) expect(lines[i + 1], lines[i]).toBe(lines[i]);
  });
});

describe("createNodeLog: flushing", () => {
  const padding = "x".repeat(200);
  const numbersIn = (path: string) =>
    readFileSync(path, "utf8")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => (JSON.parse(line) as { line: number }).line);

  // 600 lines of ~300 bytes make five blocks of ~32 KB and a rest, handed over while earlier ones still wait
  // for libuv's thread pool (busy here, as under load): the flush hands over the rest and waits, so the file
  // holds every line once, in the order logged.
  it("writes every line once and in order while earlier blocks wait for a busy thread pool", async () => {
    const path = join(dir, `ordered-${Math.random()}.log`);
    const log = createNodeLog("info", openSync(path, "w"));
    const busy = busyThreadPool(300);
    for (let i = 0; i < 600; i++) log.logger.info({ line: i, padding }, "numbered");
    expect(await log.flush(20_000)).toBe(true);
    expect(numbersIn(path)).toEqual(Array.from({ length: 600 }, (_, i) => i));
    await busy;
  });

  it("writes what is gathered before flushSync returns when no block is in flight", () => {
    const path = join(dir, `sync-${Math.random()}.log`);
    const log = createNodeLog("info", openSync(path, "w"));
    for (let i = 0; i < 3; i++) log.logger.info({ line: i, padding }, "numbered");
    log.flushSync();
    expect(numbersIn(path)).toEqual([0, 1, 2]);
  });

  // A pipe nobody reads (a FIFO opened non-blocking for reading and writing, never read): after the bound,
  // `end` gives up and drops the rest, and this log's synchronous flush at the exit no longer tries to write
  // to it, so the exit is not held.
  it("end gives up on a pipe nobody reads within its bound, and the exit flush returns at once", async () => {
    const fifo = join(dir, `fifo-${Math.random()}`);
    execFileSync("mkfifo", [fifo]);
    const log = createNodeLog("info", openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK));
    for (let i = 0; i < 6000; i++) log.logger.info({ line: i, padding }, "numbered");
    const started = performance.now();
    expect(await log.flush(200)).toBe(false);
    await log.end(200);
    log.flushSync();
    expect(performance.now() - started).toBeLessThan(2000);
  });

  // `npm start`'s build (testkit/child-gateway.ts), its stdout a pipe this test holds and does not drain: the
  // process logs ~600 KB and gives up on them after `end`'s bound (it says so on stderr); the test then closes
  // the pipe, and the process exits once its write parked in libuv's thread pool fails. Before, the exit's
  // synchronous flush (pino's) retried the broken pipe for ever. A pipe still open but never read holds the
  // exit (stdout is left blocking: a non-blocking pipe would have sonic-boom retry a full one every 100 ms).
  it("a process whose stdout is never read, then closed, exits after end's bound", async () => {
    const code = [
      `import { createNodeLog } from ${JSON.stringify(new URL("log.js", pathToFileURL(compiledEntry())).href)};`,
      `const log = createNodeLog("info");`,
      `for (let i = 0; i < 2000; i++) log.logger.info({ line: i, padding: "x".repeat(300) }, "numbered");`,
      `await log.end(300);`,
      `process.stderr.write("given up\\n");`,
      `process.exit(7);`,
    ].join("\n");
    const child = spawn(process.execPath, ["--input-type=module", "-e", code], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const exited = new Promise<number | null>((resolve) => child.once("exit", (status) => resolve(status)));
      child.stderr.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("given up")) child.stdout.destroy();
      });
      const timeout = new Promise<string>((resolve) => {
        timer = setTimeout(() => resolve("still running after 20 s"), 20_000);
      });
      expect(await Promise.race([exited, timeout])).toBe(7);
    } finally {
      clearTimeout(timer);
      child.kill("SIGKILL");
    }
  }, 60_000);
});
