import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { COMPILED_ENTRY_VARIABLE, compiledEntry } from "../../testkit/child-gateway.js";
import { WORKER_BUNDLE_VARIABLE } from "../../testkit/worker-bundle-file.js";

/** vitest's global setup (testkit/build-once.ts) builds once per run what a test file would build for itself. */
describe("builds made once per vitest run", () => {
  it("the gateway `npm start` runs, compiled before this file started", () => {
    const entry = process.env[COMPILED_ENTRY_VARIABLE];
    expect(entry).toMatch(/platform\/node\/main\.js$/);
    expect(existsSync(entry!)).toBe(true);
    expect(compiledEntry()).toBe(entry);
  });

  it("the Workers bundle, built before this file started", () => {
    const bundle = process.env[WORKER_BUNDLE_VARIABLE];
    expect(bundle).toMatch(/worker\.js$/);
    expect(existsSync(bundle!)).toBe(true);
  });
});
