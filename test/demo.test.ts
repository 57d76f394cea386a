import { describe, expect, it } from "vitest";
import { holdPort, startEntry } from "../testkit/entry-process.js";

// `npm run demo` (src/demo.ts) started twice, or beside another server: each of its two ports names its setting.

describe("npm run demo", () => {
  it.each(["PORT", "LOCALNET_PORT"])("%s already taken: one line naming it on stderr, exit code 1", async (setting) => {
    const held = await holdPort();
    try {
      const demo = startEntry(["src/demo.ts"], {
        PORT: "0",
        HOST: "127.0.0.1",
        [setting]: String(held.port),
        LOG_LEVEL: "silent",
      });
      expect(await demo.exited).toBe(1);
      expect(demo.stderr()).toBe(`port ${held.port} is already in use: set ${setting} to a free port\n`);
    } finally {
      await held.release();
    }
  });
});
