import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CONFIG_VARIABLES } from "../../src/config.js";

// The README's Configuration table is what operators read: every variable src/config.ts reads has a row,
// and every row is a variable src/config.ts reads.

const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
const start = readme.indexOf("\n## Configuration\n");
const section = readme.slice(start, readme.indexOf("\n## ", start + 1));
// The gateway's table, up to the blank line after it (the section also holds the localnet's table).
const header = section.indexOf("| Variable | Default | Meaning |");
const table = section.slice(header, section.indexOf("\n\n", header));
const rows = [...table.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((match) => match[1]!);

describe("README Configuration table", () => {
  it("exists", () => {
    expect(start).toBeGreaterThan(0);
    expect(header).toBeGreaterThan(0);
    expect(rows.length).toBeGreaterThan(10);
  });

  it.each(CONFIG_VARIABLES.map((name) => [name]))("has a row for %s", (name) => {
    expect(
      rows,
      `README.md, section "Configuration": add a row \`| \`${name}\` | <default> | <meaning> |\` for the variable src/config.ts reads`,
    ).toContain(name);
  });

  it("lists no variable src/config.ts does not read", () => {
    const unknown = rows.filter((name) => !CONFIG_VARIABLES.includes(name));
    expect(unknown, 'README.md, section "Configuration": remove these rows or read them in src/config.ts').toEqual([]);
  });

  it("lists each variable once", () => {
    expect(rows.filter((name, i) => rows.indexOf(name) !== i)).toEqual([]);
  });
});
