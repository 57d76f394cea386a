import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorkerdGateway } from "../../../testkit/workerd-gateway.js";

// Every workerd test starts the Workers build under Miniflare (testkit/workerd-gateway.ts), which works in a
// `miniflare-*` folder of the temp directory. Here the temp directory is one of this file's own, so that
// other test processes on the machine, which make such folders too, do not count.

/** Paths of `miniflare-*` entries anywhere under `dir`. */
function miniflareFolders(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.name.startsWith("miniflare-"))
    .map((entry) => join(entry.parentPath, entry.name));
}

let own: string;
let saved: string | undefined;
beforeAll(() => {
  saved = process.env.TMPDIR;
  own = mkdtempSync(join(tmpdir(), "workerd-temp-test-"));
  process.env.TMPDIR = own;
});
afterAll(() => {
  if (saved === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = saved;
  rmSync(own, { recursive: true, force: true });
});

describe("a workerd gateway", () => {
  it("started and closed leaves nothing in the temp directory, no miniflare-* folder", async () => {
    expect(tmpdir()).toBe(own);
    const gateway = await startWorkerdGateway({ LOG_LEVEL: "silent" });
    try {
      expect((await fetch(`${gateway.url}/health`)).status).toBe(200);
      // The check can fail: while it runs, the instance has its folder here.
      expect(miniflareFolders(own).length).toBeGreaterThan(0);
    } finally {
      await gateway.close();
    }
    expect(miniflareFolders(own)).toEqual([]);
    expect(readdirSync(own)).toEqual([]);
  });
});
