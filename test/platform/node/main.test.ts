import { describe, expect, it } from "vitest";
import { holdPort, startEntry } from "../../../testkit/entry-process.js";
import { request } from "../../../testkit/stack.js";

// The process entry (src/platform/node/main.ts), as `npm start` runs it, in a child process.

const ENTRY = "src/platform/node/main.ts";

describe("node entry", () => {
  it("a port already taken: one line naming PORT on stderr, exit code 1", async () => {
    const held = await holdPort("0.0.0.0");
    try {
      const gateway = startEntry([ENTRY], { PORT: String(held.port), HOST: "0.0.0.0", LOG_LEVEL: "silent" });
      expect(await gateway.exited).toBe(1);
      expect(gateway.stderr()).toBe(`port ${held.port} is already in use: set PORT to a free port\n`);
    } finally {
      await held.release();
    }
  });

  it.each([
    ["0.0.0.0", "every address"],
    ["127.0.0.1", "loopback"],
  ])(
    "HOST=%s (%s): the listening line gives the address and port as bound, and a URL to open beside them",
    async (host) => {
      const gateway = startEntry([ENTRY], { PORT: "0", HOST: host, LOG_LEVEL: "info" });
      try {
        const [line] = await gateway.waitFor(/^\{.*"msg":"listening".*\}$/m);
        const logged = JSON.parse(line) as { address: string; port: number; url: string };
        expect(logged.address).toBe(host);
        expect(logged.port).toBeGreaterThan(0);
        expect(logged.url).toBe(`http://127.0.0.1:${logged.port}`);
        const health = await request(logged.url, "/health");
        expect(health.status).toBe(200);
      } finally {
        await gateway.stop();
      }
    },
  );
});
