import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { DEMO_FIXTURE_PATH, type Localnet, loadFixtureFile, startLocalnet } from "../../src/localnet/index.js";
import { type RunningGateway, startGateway } from "../../src/platform/node/gateway.js";
import { CLOSE_GRACE_MS } from "../../src/platform/node/listener.js";
import { type LogCapture, captureLog } from "../../testkit/log-capture.js";
import { sampleValue } from "../../testkit/prometheus.js";
import { type SlowBody, openSlowBodies, openSlowBody } from "../../testkit/slow-body.js";
import { BULK_CONCURRENCY, BULK_LINE } from "../../src/http/routes/resolve-bulk.js";

/**
 * Clients slow to send a bulk request's body, against the Node gateway on
 * loopback (testkit/slow-body.ts): they hold no place where bulk work runs,
 * so a request that sends its body is answered at once meanwhile; the
 * connections Node's request timeout ends are closed by the server within
 * seconds whether or not their client reads; a body declared over the limit
 * is refused at once; a body its client abandons is counted and logged as
 * the client's doing (499), not as a fault. Node only: it is about Node's
 * HTTP server.
 */

const TEN_NAMES = JSON.stringify({
  domains: Array.from({ length: 10 }, (_, i) => (i % 2 ? "plain.sns" : `nobody${i}.sns`)),
});

let localnet: Localnet;
beforeAll(async () => {
  localnet = await startLocalnet({ ledger: await loadFixtureFile(DEMO_FIXTURE_PATH) });
});
afterAll(() => localnet?.close());

interface Started {
  readonly gateway: RunningGateway;
  readonly log: LogCapture;
}

async function start(headersTimeoutMs: number, env: Record<string, string> = {}): Promise<Started> {
  const log = captureLog();
  const config = loadConfig({
    PORT: "0",
    HOST: "127.0.0.1",
    RPC_URL: localnet.url,
    HEADERS_TIMEOUT_MS: String(headersTimeoutMs),
    SHUTDOWN_GRACE_MS: "1000",
    ...env,
  });
  return { gateway: await startGateway(config, log.logger), log };
}

const connections = (gateway: RunningGateway): Promise<number> =>
  new Promise((resolve, reject) =>
    gateway.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
  );

async function postTenNames(url: string): Promise<{ status: number; ms: number; items: number }> {
  const started = performance.now();
  const answer = await fetch(`${url}/resolve`, { method: "POST", body: TEN_NAMES });
  const body = (await answer.json()) as { result: unknown[] };
  return {
    status: answer.status,
    ms: performance.now() - started,
    items: Array.isArray(body.result) ? body.result.length : 0,
  };
}

describe("silent and dripping bodies hold no place where bulk work runs", () => {
  // Node's request timeout is 2 × 10 s here: long enough that a request waiting behind them would show.
  let started: Started;
  let attackers: SlowBody[] = [];
  beforeAll(async () => {
    started = await start(10_000);
  });
  afterAll(async () => {
    for (const attacker of attackers) attacker.destroy();
    await started?.gateway.close();
  });

  it("4 silent and 4 dripping connections: a 10-name POST is answered at once, 5 times over", async () => {
    const { url } = started.gateway;
    attackers = [
      ...(await openSlowBodies(url, 4, { kind: "silent" })),
      ...(await openSlowBodies(url, 4, { kind: "dripping", dripEveryMs: 200 })),
    ];
    // Let the gateway take all eight in.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await postTenNames(url));
    console.log(
      `10-name POST beside 4 silent + 4 dripping bodies: ${answers.map((a) => `${a.status} in ${Math.round(a.ms)} ms`).join(", ")}`,
    );
    for (const answer of answers) {
      expect(answer).toMatchObject({ status: 200, items: 10 });
      // Without the attackers it takes milliseconds; behind them it waited for their 20 s request timeout.
      expect(answer.ms).toBeLessThan(3000);
    }
    expect(attackers.every((attacker) => attacker.open())).toBe(true);
  }, 30_000);
});

describe("the bulk line is bounded", () => {
  let started: Started;
  beforeAll(async () => {
    started = await start(10_000, { RPC_TIMEOUT_MS: "10000" });
  });
  afterAll(async () => {
    localnet.setFault(null);
    await started?.gateway.close();
  });

  it(`${BULK_LINE.receiving} bodies being received: one more takes the place of the oldest, answered 503 with Retry-After, its connection closed`, async () => {
    const { url } = started.gateway;
    const line = await openSlowBodies(url, BULK_LINE.receiving, { kind: "silent" });
    await sleep(300);
    try {
      expect(line.map((body) => body.status())).toEqual(line.map(() => 0));
      const newer = await openSlowBodies(url, 2, { kind: "silent" });
      const [firstEnded, secondEnded] = await Promise.all(
        line.slice(0, 2).map((body) => Promise.race([body.ended, sleep(3000).then(() => Infinity)])),
      );
      for (const body of line.slice(0, 2)) {
        expect(body.status()).toBe(503);
        expect(body.received()).toMatch(/\r\nretry-after: 1\r\n/i);
        expect(body.received()).toMatch(/\r\nconnection: close\r\n/i);
        expect(body.received()).toContain('{"s":"error","result":"Service overloaded"}');
      }
      expect(Math.max(firstEnded!, secondEnded!)).toBeLessThan(3000);
      expect([...line.slice(2), ...newer].map((body) => body.status())).toEqual(
        [...line.slice(2), ...newer].map(() => 0),
      );
      // A request whose body follows its headers gets a place among them too.
      expect(await postTenNames(url)).toMatchObject({ status: 200, items: 10 });
      for (const body of newer) body.destroy();
    } finally {
      for (const body of line) body.destroy();
    }
  });

  it(`${BULK_CONCURRENCY} under way and ${BULK_LINE.waiting} waiting with their bodies read: one more is 503 at once`, async () => {
    const { url } = started.gateway;
    localnet.setFault({ kind: "hang" });
    const post = (name: string) =>
      fetch(`${url}/resolve`, { method: "POST", body: JSON.stringify({ domains: [name] }) }).then(async (answer) => ({
        status: answer.status,
        retryAfter: answer.headers.get("retry-after"),
        body: await answer.text(),
      }));
    const held = Array.from({ length: BULK_CONCURRENCY + BULK_LINE.waiting }, (_, i) => post(`held${i}.sns`));
    // All in: their bodies read, 4 hanging on the RPC, the rest waiting.
    await sleep(1500);
    const sent = performance.now();
    const refused = await Promise.all([post("late1.sns"), post("late2.sns")]);
    const ms = performance.now() - sent;
    localnet.setFault(null);
    for (const answer of refused)
      expect(answer).toEqual({ status: 503, retryAfter: "1", body: '{"s":"error","result":"Service overloaded"}' });
    expect(ms).toBeLessThan(1000);
    const statuses = (await Promise.all(held)).map((answer) => answer.status);
    expect(statuses.every((status) => status === 200)).toBe(true);
  });
});

describe("a connection Node's request timeout ends is closed by the server", () => {
  // Node's request timeout: 2 × 1 s, checked every second.
  let started: Started;
  beforeAll(async () => {
    started = await start(1000);
  });
  afterAll(() => started?.gateway.close());

  // 60: fewer than the bulk routes' places for bodies being received, so none is refused for want of one.
  it("30 silent and 30 dripping bodies, half of their clients never reading: 408, and no socket left open seconds later", async () => {
    const { url } = started.gateway;
    const silentReading = await openSlowBodies(url, 15, { kind: "silent" });
    const silentDeaf = await openSlowBodies(url, 15, { kind: "silent", reads: false });
    const drippingReading = await openSlowBodies(url, 15, { kind: "dripping", dripEveryMs: 250 });
    const drippingDeaf = await openSlowBodies(url, 15, { kind: "dripping", dripEveryMs: 250, reads: false });
    const all = [...silentReading, ...silentDeaf, ...drippingReading, ...drippingDeaf];
    await sleep(300);
    expect(await connections(started.gateway)).toBe(all.length);
    try {
      // Request timeout (2 s) + its check (1 s) + the grace for the answer + margin for a loaded machine.
      const deadline = 2000 + 1000 + CLOSE_GRACE_MS + 3000;
      const waited = performance.now();
      while ((await connections(started.gateway)) > 0 && performance.now() - waited < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const left = await connections(started.gateway);
      const closedMs = await Promise.all(
        drippingDeaf.map((body) => Promise.race([body.closed, sleep(3000).then(() => Infinity)])),
      );
      console.log(
        `60 timed-out bodies: ${left} sockets still open after ${Math.round(performance.now() - waited)} ms; ` +
          `non-reading dripping clients saw the connection reset after ${Math.round(Math.min(...closedMs))}–${Math.round(Math.max(...closedMs))} ms`,
      );
      expect(left).toBe(0);
      for (const body of [...silentReading, ...drippingReading]) expect(body.status()).toBe(408);
      // A client that keeps sending learns the connection is gone without closing it itself.
      for (const ms of closedMs) expect(ms).toBeLessThan(deadline + 3000);
      // Each body the request timeout ended: one info line of its request (499), no stack, no parser line.
      const lines = started.log.lines();
      expect(lines.filter((line) => line.msg === "request" && line.status === 499)).toHaveLength(all.length);
      expect(lines.filter((line) => line.level !== 30)).toEqual([]);
      expect(lines.filter((line) => line.msg === "request refused by the HTTP parser")).toEqual([]);
    } finally {
      for (const body of all) body.destroy();
    }
  }, 30_000);
});

describe("a body declared over the limit", () => {
  let started: Started;
  beforeAll(async () => {
    started = await start(10_000);
  });
  afterAll(() => started?.gateway.close());

  it("Content-Length 300,000 with 10 bytes sent: 413 at once, and the connection closed", async () => {
    const body = openSlowBody(started.gateway.url, { kind: "oversized" });
    await body.sent;
    const endedMs = await Promise.race([body.ended, sleep(5000).then(() => Infinity)]);
    await sleep(200);
    const left = await connections(started.gateway);
    console.log(
      `Content-Length 300000, 10 bytes sent: ${body.status()}, the server's end of the connection after ${Math.round(endedMs)} ms`,
    );
    expect(body.status()).toBe(413);
    expect(body.received()).toContain('{"s":"error","result":"Request body too large"}');
    expect(endedMs).toBeLessThan(2000);
    expect(left).toBe(0);
    body.destroy();
  });

  it("a chunked body that crosses the limit, then stalls: 413 within about a second, not at the request timeout", async () => {
    const { hostname, port } = new URL(started.gateway.url);
    const { connect } = await import("node:net");
    const sent = performance.now();
    const answer = await new Promise<{ text: string; ms: number }>((resolve, reject) => {
      let text = "";
      const socket = connect(Number(port), hostname, () => {
        const chunk = "x".repeat(64 * 1024);
        socket.write("POST /resolve HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n");
        // 320 KiB in 64 KiB chunks, over the 256 KiB limit; then nothing more, the connection kept open.
        for (let i = 0; i < 5; i++) socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
      });
      socket.on("data", (data: Buffer) => {
        text += data.toString();
        if (text.includes("Request body too large")) {
          resolve({ text, ms: performance.now() - sent });
          socket.destroy();
        }
      });
      socket.on("error", reject);
      setTimeout(() => {
        resolve({ text, ms: Infinity });
        socket.destroy();
      }, 8000);
    });
    expect(answer.text).toMatch(/^HTTP\/1\.1 413/);
    expect(answer.ms).toBeLessThan(3000);
  });

  it("with Expect: 100-continue: 413 at once, never 100 Continue", async () => {
    const body = openSlowBody(started.gateway.url, {
      kind: "silent",
      declaredLength: 300_000,
      headers: ["Expect: 100-continue"],
    });
    await body.sent;
    const endedMs = await Promise.race([body.ended, sleep(5000).then(() => Infinity)]);
    expect(body.status()).toBe(413);
    expect(body.received()).not.toContain("100 Continue");
    expect(endedMs).toBeLessThan(2000);
    body.destroy();
  });

  it("a body within the limit with Expect: 100-continue: 100 Continue once the gateway reads it, then the answer", async () => {
    const { hostname, port } = new URL(started.gateway.url);
    const text = await new Promise<string>((resolve, reject) => {
      const net = import("node:net");
      void net.then(({ connect }) => {
        const socket = connect(Number(port), hostname, () => {
          socket.write(
            `POST /resolve HTTP/1.1\r\nHost: g\r\nContent-Length: ${Buffer.byteLength(TEN_NAMES)}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
          );
        });
        let received = "";
        let bodySent = false;
        socket.on("data", (chunk: Buffer) => {
          received += chunk.toString("latin1");
          if (!bodySent && received.includes("100 Continue\r\n\r\n")) {
            bodySent = true;
            socket.write(TEN_NAMES);
          }
        });
        socket.on("error", reject);
        socket.on("close", () => resolve(received));
      });
    });
    expect(text.startsWith("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n")).toBe(true);
  });
});

describe("a body its client abandons", () => {
  let started: Started;
  beforeAll(async () => {
    started = await start(10_000);
  });
  afterAll(() => started?.gateway.close());

  it("100 client closes mid-body: 499 in the metrics and the log at info, no stack, no 500", async () => {
    const { url } = started.gateway;
    started.log.clear();
    // Two rounds of 50: fewer than the bulk routes' places for bodies being received.
    for (let round = 0; round < 2; round++) {
      const bodies = await openSlowBodies(url, 50, { kind: "dripping", dripEveryMs: 50 });
      await sleep(300);
      for (const body of bodies) body.destroy();
      await sleep(300);
    }
    const metrics = await (await fetch(`${url}/metrics`)).text();
    const requests = (status: string) =>
      sampleValue(metrics, "sns_gateway_http_requests_total", { route: "/resolve", method: "POST", status });
    console.log(`100 client closes: metrics 499 × ${requests("499")}, 500 × ${requests("500")}`);
    expect(requests("499")).toBe(100);
    expect(requests("500")).toBe(0);
    const lines = started.log.lines().filter((line) => line.route === "/resolve");
    expect(lines).toHaveLength(100);
    for (const line of lines)
      expect(line).toMatchObject({ level: 30, msg: "request", status: 499, error: "CLIENT_CLOSED" });
    expect(started.log.text()).not.toContain('"stack"');
    expect(started.log.lines().filter((line) => line.level !== 30)).toEqual([]);
  });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
