import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { NPM_START, startScriptOf } from "../../testkit/npm-start.js";

// Tests and benchmarks start the gateway with testkit/npm-start.ts's flags; production runs package.json's
// `start`. This is the one place that compares the two, so that what is measured is what runs.

describe("npm start", () => {
  it("package.json's start script is the one testkit/npm-start.ts describes", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
      scripts: { start: string };
    };
    expect(pkg.scripts.start, "change package.json's start and NPM_START in testkit/npm-start.ts together").toBe(
      startScriptOf(NPM_START),
    );
  });
});
