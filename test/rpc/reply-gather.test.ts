import net from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { DEMO_FIXTURE_PATH, loadFixtureFile } from "../../src/localnet/index.js";
import { type Stack, describeOnNode, startStack } from "../../testkit/stack.js";

/**
 * The clients one batch reply answered send their next requests one poll phase after another; their
 * reads are gathered into one RPC request (rpc/reply-gather.ts) rather than sent as each poll phase
 * brings some, and a gather never holds a read beyond the first poll phase that brings none. Node only:
 * Workers make a loader per request, so nothing is gathered across requests.
 */

/** A keep-alive HTTP/1.1 connection written to at exactly the moment the test chooses. */
class Connection {
  private received = "";
  private waiting: ((status: number) => void) | undefined;

  private constructor(private readonly socket: net.Socket) {
    socket.on("data", (chunk: Buffer) => {
      this.received += chunk.toString("latin1");
      const end = this.received.indexOf("\r\n\r\n");
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(this.received.slice(0, end));
      if (end < 0 || !length || this.received.length - end - 4 < Number(length[1])) return;
      const status = Number(this.received.slice(9, 12));
      this.received = this.received.slice(end + 4 + Number(length[1]));
      const waiting = this.waiting;
      this.waiting = undefined;
      waiting?.(status);
    });
  }

  static open(url: string): Promise<Connection> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = net.connect(Number(port), hostname, () => resolve(new Connection(socket)));
      socket.once("error", reject);
    });
  }

  /** Writes the request now (synchronously); `answered` runs in the I/O callback that reads the answer. */
  send(path: string, answered?: (status: number) => void): Promise<number> {
    return new Promise((resolve) => {
      this.waiting = (status) => {
        answered?.(status);
        resolve(status);
      };
      this.socket.write(`GET ${path} HTTP/1.1\r\nHost: gateway\r\n\r\n`);
    });
  }

  close(): void {
    this.socket.destroy();
  }
}

/** A name no one registered (404): its resolution reads its accounts once and needs nothing else. */
let unique = 0;
const freshName = () => `/resolve/gather${Date.now().toString(36)}x${unique++}.sns`;

describeOnNode("reads of the clients one reply answered (BATCH_GATHER_MS)", () => {
  let stack: Stack;
  let connections: Connection[];
  const BOUND_MS = 1000;
  beforeAll(async () => {
    // A bound far beyond any turn of a loaded machine: what ends a gather here is the count or a quiet poll phase.
    stack = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH), { BATCH_GATHER_MS: String(BOUND_MS) });
    stack.localnet.setLatency(20);
    connections = await Promise.all(Array.from({ length: 6 }, () => Connection.open(stack.gateway.url)));
    // Every connection's first request, and the app's first answer, before anything is counted.
    expect(await Promise.all(connections.map((connection) => connection.send("/health")))).toEqual(
      connections.map(() => 200),
    );
  });
  afterAll(async () => {
    for (const connection of connections ?? []) connection.close();
    await stack?.close();
  });

  /** Sends one request on each connection at once (one poll phase of the gateway's: one batch). */
  async function oneReply(clients: readonly Connection[], then: () => Promise<number[]>): Promise<number[]> {
    let answered = 0;
    let next: Promise<number[]> | undefined;
    let firstPosts: number | undefined;
    stack.localnet.resetStats();
    const first = await Promise.all(
      clients.map((connection) =>
        connection.send(freshName(), () => {
          // Answered by one reply, in one I/O callback of this process: the next requests start from there.
          // (Recorded, not asserted here: a throw in this socket callback would hang the test, not fail it.)
          if (++answered < clients.length) return;
          firstPosts = stack.localnet.stats.httpRequests;
          stack.localnet.resetStats();
          next = then();
        }),
      ),
    );
    expect(first).toEqual(clients.map(() => 404));
    expect(firstPosts).toBe(1);
    return next!;
  }

  it("sends the next reads of a reply's clients, arriving one poll phase after another, in one RPC request", async () => {
    const statuses = await oneReply(connections, async () => {
      const next: Promise<number>[] = [];
      // One client a turn of this event loop, which the gateway shares: each of its poll phases reads one request.
      for (const connection of connections) {
        next.push(connection.send(freshName()));
        await new Promise((turn) => setImmediate(turn));
      }
      return Promise.all(next);
    });
    expect(statuses).toEqual(connections.map(() => 404));
    expect(stack.localnet.stats.httpRequests).toBe(1);
    expect(stack.localnet.stats.methods).toEqual({ getMultipleAccounts: 1 });
  });

  it("sends a read at the first poll phase that brings no other: a gather never waits for clients that do not come", async () => {
    let sentAt = 0;
    const [status] = await oneReply(connections.slice(0, 4), () => {
      sentAt = performance.now();
      return Promise.all([connections[0]!.send(freshName())]);
    });
    const elapsed = performance.now() - sentAt;
    expect(status).toBe(404);
    expect(stack.localnet.stats.httpRequests).toBe(1);
    // One RPC round trip (20 ms) and a few turns, not the gather's bound.
    expect(elapsed).toBeLessThan(BOUND_MS / 2);
  });

  it("sends a lone client's next read at once: it is all the reply answered", async () => {
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      expect(await connections[0]!.send(freshName())).toBe(404);
      times.push(performance.now() - started);
    }
    expect(Math.max(...times)).toBeLessThan(BOUND_MS / 2);
  });
});
