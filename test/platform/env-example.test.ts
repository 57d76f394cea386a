import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CONFIG_VARIABLES, loadConfig } from "../../src/config.js";

// .env.example lists every setting src/config.ts reads, commented out at its default, under a one-line
// meaning: a new setting without its line, or a default changed in one place only, fails here.

const lines = readFileSync(new URL("../../.env.example", import.meta.url), "utf8").split("\n");
const SETTING = /^#([A-Z][A-Z0-9_]*)=(.*)$/;
const settings = lines.flatMap((line, i) => {
  const match = SETTING.exec(line);
  return match ? [{ name: match[1]!, value: match[2]!, above: lines[i - 1] ?? "" }] : [];
});

describe(".env.example", () => {
  it.each(CONFIG_VARIABLES.map((name) => [name]))(
    "has %s, commented out at its default, under a one-line meaning",
    (name) => {
      const found = settings.filter((setting) => setting.name === name);
      expect(
        found,
        `.env.example: add "# <meaning>" then "#${name}=<default>" for the variable src/config.ts reads`,
      ).toHaveLength(1);
      const [{ value, above }] = found as [(typeof settings)[number]];
      expect(
        loadConfig({ [name]: value }),
        `.env.example: #${name}=${value} is not the default of src/config.ts`,
      ).toEqual(loadConfig({}));
      expect(above, `.env.example: the line above #${name}= says what it does`).toMatch(/^# \S/);
      expect(SETTING.test(above)).toBe(false);
    },
  );

  it("lists no variable src/config.ts does not read", () => {
    const unknown = settings.map((setting) => setting.name).filter((name) => !CONFIG_VARIABLES.includes(name));
    expect(unknown, ".env.example: remove these lines or read them in src/config.ts").toEqual([]);
  });

  it("sets nothing: every setting line is commented out", () => {
    expect(lines.filter((line) => /^\s*[A-Z][A-Z0-9_]*\s*=/.test(line))).toEqual([]);
  });
});
