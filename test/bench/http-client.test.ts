import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Answer, LoadConnection } from "../../bench/http-client.js";
import { runLoad } from "../../bench/load.js";

// The benchmark's raw-socket client must read every framing a server may use,
// or the bench would count wrong answers as mismatches (or miss real ones).

let server: Server;
let base: string;
let connectionsOpened = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url!, "http://x");
    const body = `{"path":"${url.pathname}","ü":"ß"}`;
    if (url.pathname.startsWith("/chunked")) {
      // Several chunks, written apart so they arrive in separate reads.
      res.writeHead(200, { "content-type": "application/json" });
      res.write(body.slice(0, 5));
      setTimeout(() => res.end(body.slice(5)), 2);
    } else if (url.pathname.startsWith("/close")) {
      res.writeHead(404, { "content-length": Buffer.byteLength(body), connection: "close" });
      res.end(body);
    } else if (url.pathname.startsWith("/empty")) {
      res.writeHead(204);
      res.end();
    } else {
      res.writeHead(200, { "Content-Length": Buffer.byteLength(body) });
      res.end(body);
    }
  });
  server.on("connection", () => connectionsOpened++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function expectedBody(path: string): string {
  return `{"path":"${path}","ü":"ß"}`;
}

/** Sends the paths one after another on one connection and collects the answers. */
function sendAll(paths: string[]): Promise<{ path: string; status: number; body: string; first: boolean }[]> {
  const answers: { path: string; status: number; body: string; first: boolean }[] = [];
  const queue = [...paths];
  const { port } = new URL(base);
  return new Promise((resolve, reject) => {
    const connection = new LoadConnection("127.0.0.1", Number(port), {
      next: () => queue.shift(),
      onAnswer: (path: string, answer: Answer, _elapsed: number, first: boolean) => {
        answers.push({ path, status: answer.status, body: answer.body.toString("utf8"), first });
        if (answers.length === paths.length) resolve(answers);
      },
      onError: reject,
    });
    connection.start();
  });
}

describe("bench raw-socket client", () => {
  it("reads content-length, chunked and bodiless answers on one keep-alive connection", async () => {
    const before = connectionsOpened;
    const paths = ["/a", "/chunked/1", "/empty", "/b", "/chunked/2"];
    const answers = await sendAll(paths);
    expect(answers.map((a) => [a.path, a.status, a.body])).toEqual([
      ["/a", 200, expectedBody("/a")],
      ["/chunked/1", 200, expectedBody("/chunked/1")],
      ["/empty", 204, ""],
      ["/b", 200, expectedBody("/b")],
      ["/chunked/2", 200, expectedBody("/chunked/2")],
    ]);
    expect(answers.map((a) => a.first)).toEqual([true, false, false, false, false]);
    expect(connectionsOpened - before).toBe(1);
  });

  it("opens a new connection when the server closes one, and marks its first answer", async () => {
    const answers = await sendAll(["/close/1", "/x", "/close/2", "/y"]);
    expect(answers.map((a) => [a.path, a.status, a.first])).toEqual([
      ["/close/1", 404, true],
      ["/x", 200, true],
      ["/close/2", 404, false],
      ["/y", 200, true],
    ]);
  });

  it("checks every answer of a run against the expected ones", async () => {
    const sequence = ["/a", "/b", "/chunked/c", "/d"];
    const expected = new Map(sequence.map((path) => [path, { status: 200, body: expectedBody(path) }]));
    expected.set("/d", { status: 200, body: "something else" });
    const result = await runLoad(
      { url: base, connections: 4, durationS: 0.3, sequence, start: 0, expected, branchOf: new Map() },
      "raw",
    );
    expect(result.responses).toBeGreaterThan(20);
    expect(result.errors).toBe(0);
    expect(result.statuses).toEqual({ "200": result.responses });
    // Exactly the answers to /d differ: one in four.
    expect(result.mismatches).toBeGreaterThan(0);
    expect(Math.abs(result.mismatches * 4 - result.responses)).toBeLessThanOrEqual(4);
    expect(result.mismatchExamples[0]).toEqual({
      path: "/d",
      expected: { status: 200, body: "something else" },
      got: { status: 200, body: expectedBody("/d") },
    });
  });
});
