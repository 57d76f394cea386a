import { mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { RequestLine } from "../../../src/logger.js";
import { createNodeLog } from "../../../src/platform/node/log.js";

const dir = mkdtempSync(join(tmpdir(), "node-log-"));
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

/**
 * Each line written through pino's general path and through the request writer, time set aside. `flushSync`
 * hands over what is gathered, but a block already in an asynchronous write (sonic-boom's write in progress)
 * lands when the thread pool runs it: the file is read until its `lines` lines are there (2 s at most).
 */
async function writtenBothWays(level: string, line: RequestLine, lines = 2): Promise<[string, string]> {
  const path = join(dir, `${level}-${Math.random()}.log`);
  // A descriptor, not a path: the asynchronous destination is then ready at once (left open: pino owns it).
  const fd = openSync(path, "w");
  const log = createNodeLog(level, fd);
  log.logger.info({ ...line }, "request");
  log.logger.request(line);
  log.flushSync();
  let written = readFileSync(path, "utf8");
  for (let waited = 0; written.split("\n").length <= lines && waited < 2000; waited += 5) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    written = readFileSync(path, "utf8");
  }
  const [viaPino = "", viaWriter = ""] = written.replace(/"time":\d+/g, '"time":0').split(/(?<=\n)/);
  return [viaPino, viaWriter];
}

describe("createNodeLog: request lines", () => {
  it.each(LINES.map((line) => [line.status, line] as const))("writes pino's bytes (status %s)", async (_, line) => {
    const [viaPino, viaWriter] = await writtenBothWays("info", line);
    expect(viaPino).toMatch(/^\{"level":30,"time":0,"pid":\d+,"hostname":.*,"msg":"request"\}\n$/);
    expect(viaWriter).toBe(viaPino);
  });

  it("writes nothing below its level", async () => {
    expect(await writtenBothWays("warn", LINES[0]!, 0)).toEqual(["", ""]);
  });

  // Over what the writer is given: ids as the frame admits them (printable ASCII, src/http/answer/request-id.ts),
  // method tokens, route patterns and failure codes (ASCII).
  it("writes pino's bytes for 300 generated lines", async () => {
    let seed = 3;
    const draw = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return Math.floor((seed / 2 ** 31) * n);
    };
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
    log.flushSync();
    let written = readFileSync(path, "utf8");
    for (let waited = 0; written.split("\n").length <= 400 && waited < 2000; waited += 5) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      written = readFileSync(path, "utf8");
    }
    const lines = written.replace(/"time":\d+/g, '"time":0').split(/(?<=\n)/);
    expect(lines).toHaveLength(400);
    for (let i = 0; i < 400; i += 2) expect(lines[i + 1], lines[i]).toBe(lines[i]);
  });
});
