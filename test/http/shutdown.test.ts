import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { DEMO_FIXTURE_PATH, identity, loadFixtureFile, startLocalnet } from "../../src/localnet/index.js";
import { request } from "../support/stack.js";

describe("graceful shutdown", () => {
  it("SIGTERM lets in-flight requests finish, then the process exits 0", async () => {
    const localnet = await startLocalnet({ ledger: await loadFixtureFile(DEMO_FIXTURE_PATH), latencyMs: 400 });
    const child = spawn(process.execPath, ["--import", "tsx", "src/node.ts"], {
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
      expect(JSON.parse(lines[0]!)).toMatchObject({ method: "GET", path: "/resolve/plain.sns", status: 200 });
    } finally {
      child.kill("SIGKILL");
      await localnet.close();
    }
  });
});
