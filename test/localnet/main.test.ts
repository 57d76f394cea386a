import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEMO_FIXTURE_PATH } from "../../src/localnet/fixture.js";
import { LOCALNET_DEFAULTS } from "../../src/localnet/settings.js";
import { holdPort, startEntry } from "../../testkit/entry-process.js";
import { call } from "./helpers.js";

// `npm run localnet` (src/localnet/main.ts): the local ledger alone, in a child process.

describe("npm run localnet", () => {
  // It builds dist/ first when a source is newer (scripts/build-if-stale.mjs): tsc takes a while on a busy machine.
  it("starts on LOCALNET_PORT and answers JSON-RPC getSlot and getHealth there", { timeout: 180_000 }, async () => {
    const free = await holdPort();
    await free.release();
    const localnet = startEntry(["npm", "run", "--silent", "localnet"], { LOCALNET_PORT: String(free.port) });
    try {
      const [, url] = await localnet.waitFor(/localnet listening on (http:\/\/\S+)/);
      expect(url).toBe(`http://127.0.0.1:${free.port}`);
      expect(localnet.stdout()).toContain(DEMO_FIXTURE_PATH);
      expect((await call(url!, "getSlot")).result).toBeGreaterThan(0);
      expect((await call(url!, "getHealth")).result).toBe("ok");
    } finally {
      await localnet.stop();
    }
  });

  it("a port already taken: one line naming LOCALNET_PORT on stderr, exit code 1", async () => {
    const held = await holdPort();
    try {
      const localnet = startEntry(["src/localnet/main.ts"], { LOCALNET_PORT: String(held.port) });
      expect(await localnet.exited).toBe(1);
      expect(localnet.stderr()).toBe(`port ${held.port} is already in use: set LOCALNET_PORT to a free port\n`);
    } finally {
      await held.release();
    }
  });
});

describe("docs/operations.md's localnet table", () => {
  const page = readFileSync(new URL("../../docs/operations.md", import.meta.url), "utf8");
  const header = page.indexOf("| Localnet variable | Default | Meaning |");
  const table = page.slice(header, page.indexOf("\n\n", header));
  const rows = [...table.matchAll(/^\| `([A-Z0-9_]+)` \| `([^`]*)` \|/gm)].map((match) => [match[1]!, match[2]!]);

  it("lists every variable src/localnet/settings.ts reads, with its default, and nothing else", () => {
    expect(header, "docs/operations.md: a table headed | Localnet variable | Default | Meaning |").toBeGreaterThan(0);
    expect(Object.fromEntries(rows)).toEqual(LOCALNET_DEFAULTS);
  });

  it("names the demo fixture by its path from the package root", () => {
    expect(DEMO_FIXTURE_PATH.endsWith(`/${LOCALNET_DEFAULTS.LOCALNET_FIXTURE}`)).toBe(true);
  });
});
