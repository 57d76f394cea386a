import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/**
 * .ci/run runs the README's test command, `npm test` (its checks side by side, scripts/checks.mjs, then
 * `vitest run`), and a chosen set of files again on Node 24: both are held here to what they name.
 */
const root = new URL("../../", import.meta.url);
const ciRun = readFileSync(new URL(".ci/run", root), "utf8");

/** The words of a bash array assignment `NAME=( ... )` in .ci/run. */
function bashArray(name: string): string[] {
  const match = new RegExp(`^${name}=\\(([^)]*)\\)`, "m").exec(ciRun);
  if (!match) throw new Error(`.ci/run assigns no ${name}=( ... )`);
  return match[1]!.split(/\s+/).filter((word) => word !== "");
}

describe(".ci/run", () => {
  it("runs `npm test`, which runs every check scripts/checks.mjs names, then `vitest run`", async () => {
    const scripts = (
      JSON.parse(readFileSync(new URL("package.json", root), "utf8")) as { scripts: Record<string, string> }
    ).scripts;
    expect(ciRun).toMatch(/^\s*PATH="\$bin:\$PATH" npm test \|\| run=\$\?$/m);
    expect(scripts.test).toBe("npm run checks && vitest run");
    expect(scripts.checks).toBe("node scripts/checks.mjs");
    const { CHECKS } = (await import(new URL("scripts/checks.mjs", root).href)) as { CHECKS: string[] };
    expect(CHECKS).toEqual(["typecheck", "lint", "format:check"]);
    for (const check of CHECKS) expect(scripts[check], check).toBeDefined();
  });

  it("names, for its second Node line, files and folders that exist", () => {
    const selected = bashArray("NODE_LINE_FILES");
    expect(selected).toContain("test/process/");
    for (const path of selected) expect(existsSync(new URL(path, root)), path).toBe(true);
  });

  it("leaves out of its second Node line only files that exist, each within what the line selects", () => {
    const selected = bashArray("NODE_LINE_FILES");
    const excluded = bashArray("NODE_LINE_EXCLUDED");
    expect(ciRun).toMatch(/"\$\{NODE_LINE_EXCLUDED\[@\]\/#\/--exclude=\}"/);
    for (const path of excluded) {
      expect(existsSync(new URL(path, root)), path).toBe(true);
      expect(path.endsWith(".test.ts"), path).toBe(true);
      expect(
        selected.some((filter) => path.includes(filter)),
        path,
      ).toBe(true);
    }
  });
});
