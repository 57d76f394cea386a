import { spawn } from "node:child_process";
import { once } from "node:events";
import http from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_FIXTURE_PATH, identity, loadFixtureFile, startLocalnet } from "../../src/localnet/index.js";
import { compiledEntry, startChildGateway } from "../../testkit/child-gateway.js";
import { request } from "../../testkit/stack.js";

describe("graceful shutdown", () => {
  it("SIGTERM lets in-flight requests finish, then the process exits 0", async () => {
    const localnet = await startLocalnet({ ledger: await loadFixtureFile(DEMO_FIXTURE_PATH), latencyMs: 400 });
    const child = spawn(process.execPath, ["--import", "tsx", "src/platform/node/main.ts"], {
      env: { ...process.env, RPC_URL: localnet.url, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      let output = "";
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on("data", (chunk: Buffer) => {
          output += chunk.toString();
          const match = /"url":"(http:\/\/[^"]+)"/.exec(output);
          if (match) resolve(match[1]!);
        });
        child.once("exit", (code) => reject(new Error(`exited early (${code}): ${output}`)));
      });
      const inFlight = request(url, "/resolve/plain.sns");
      await new Promise((resolve) => setTimeout(resolve, 100));
      child.kill("SIGTERM");
      const answer = await inFlight;
      expect(answer.body).toEqual({ s: "ok", result: identity("bob").address });
      const [code] = await once(child, "exit");
      expect(code).toBe(0);
      // Every request left exactly one structured log line.
      const lines = output.split("\n").filter((line) => line.includes('"msg":"request"'));
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({ method: "GET", route: "/resolve/:domain", status: 200 });
    } finally {
      child.kill("SIGKILL");
      await localnet.close();
    }
  });
});

describe("draining on SIGTERM", () => {
  const GRACE_MS = 20_000;

  // tsc takes seconds alone and much longer on a busy machine: not inside a test's own time limit.
  beforeAll(() => void compiledEntry(), 180_000);

  /** GET over a keep-alive agent; resolves with status and the Connection header. */
  function keepAliveGet(
    agent: http.Agent,
    url: string,
  ): Promise<{ status: number; connection: string | undefined; body: string }> {
    return new Promise((resolve, reject) => {
      http
        .get(url, { agent }, (response) => {
          let body = "";
          response.on("data", (chunk: Buffer) => (body += chunk.toString()));
          response.on("end", () =>
            resolve({ status: response.statusCode!, connection: response.headers.connection, body }),
          );
        })
        .on("error", reject);
    });
  }

  it("answers in-flight requests with Connection: close and exits as soon as they are answered", async () => {
    const localnet = await startLocalnet({ ledger: await loadFixtureFile(DEMO_FIXTURE_PATH), latencyMs: 500 });
    const gateway = await startChildGateway({ RPC_URL: localnet.url, SHUTDOWN_GRACE_MS: String(GRACE_MS) });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
    try {
      // Keep-alive sockets first, so the requests below travel on reused connections.
      await Promise.all(Array.from({ length: 4 }, () => keepAliveGet(agent, `${gateway.url}/health`)));
      const inFlight = Array.from({ length: 4 }, (_, i) =>
        keepAliveGet(agent, `${gateway.url}/resolve/plain.sns?n=${i}`),
      );
      await new Promise((resolve) => setTimeout(resolve, 150));
      const signalled = performance.now();
      gateway.process.kill("SIGTERM");
      for (const answer of await Promise.all(inFlight)) {
        expect(answer.status).toBe(200);
        expect(JSON.parse(answer.body)).toEqual({ s: "ok", result: identity("bob").address });
        expect(answer.connection).toBe("close");
      }
      expect(await gateway.exited()).toBe(0);
      // Well before the grace period: the process did not wait for it.
      expect(performance.now() - signalled).toBeLessThan(GRACE_MS / 2);
    } finally {
      agent.destroy();
      await gateway.stop();
      await localnet.close();
    }
  });

  it("closes idle keep-alive sockets at once instead of waiting for their timeout", async () => {
    const localnet = await startLocalnet({ ledger: await loadFixtureFile(DEMO_FIXTURE_PATH) });
    const gateway = await startChildGateway({ RPC_URL: localnet.url, SHUTDOWN_GRACE_MS: String(GRACE_MS) });
    const agent = new http.Agent({ keepAlive: true });
    try {
      const answer = await keepAliveGet(agent, `${gateway.url}/resolve/plain.sns`);
      expect(answer.connection).toBe("keep-alive");
      const [idle] = Object.values(agent.freeSockets).flat();
      expect(idle).toBeDefined();
      const socketClosed = once(idle!, "close");
      const signalled = performance.now();
      gateway.process.kill("SIGTERM");
      await socketClosed;
      expect(await gateway.exited()).toBe(0);
      // Node keeps an idle socket for 5 s (keepAliveTimeout); a drain that waited for it would take that long.
      expect(performance.now() - signalled).toBeLessThan(4000);
    } finally {
      agent.destroy();
      await gateway.stop();
      await localnet.close();
    }
  });
});
