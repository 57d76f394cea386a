import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { COMPILED_ENTRY_VARIABLE, compiledEntry } from "../../testkit/child-gateway.js";
import { compileProject } from "../../testkit/compile.js";
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

describe("compileProject (incremental)", () => {
  it("emits an output again when it went missing while the build info stayed", () => {
    const dir = mkdtempSync(join(tmpdir(), "compile-"));
    try {
      writeFileSync(join(dir, "a.ts"), "export const a: number = 1;\n");
      writeFileSync(join(dir, "b.ts"), "export const b: string = 'b';\n");
      writeFileSync(
        join(dir, "tsconfig.json"),
        JSON.stringify({ compilerOptions: { module: "nodenext", target: "es2022" }, files: ["a.ts", "b.ts"] }),
      );
      const out = join(dir, "out");
      expect(compileProject(join(dir, "tsconfig.json"), out).diagnostics).toBe("");
      expect(existsSync(join(out, "a.js"))).toBe(true);
      rmSync(join(out, "a.js"));
      compileProject(join(dir, "tsconfig.json"), out);
      expect(existsSync(join(out, "a.js"))).toBe(true);
      expect(existsSync(join(out, "b.js"))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
