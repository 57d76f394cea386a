import { describe, expect, it } from "vitest";
import { parseFullDomain } from "../../src/sns/domain.js";
import { SnsError } from "../../src/sns/errors.js";

function codeOf(raw: string): string {
  try {
    parseFullDomain(raw);
    return "ok";
  } catch (error) {
    return (error as SnsError).code;
  }
}

describe("parseFullDomain", () => {
  it("normalizes by trimming and lowercasing before any check", () => {
    expect(parseFullDomain("  BonFida.SNS ")).toEqual({ tld: ".sns", name: "bonfida", labels: ["bonfida"] });
    expect(parseFullDomain("\tDex.Bonfida.Sol\n")).toEqual({ tld: ".sol", name: "dex.bonfida", labels: ["dex", "bonfida"] });
  });

  it.each([
    ["bonfida", "UNSUPPORTED_TLD"],
    ["bonfida.com", "UNSUPPORTED_TLD"],
    ["bonfida.sns.", "UNSUPPORTED_TLD"],
    ["", "UNSUPPORTED_TLD"],
    ["sns", "UNSUPPORTED_TLD"],
    [".sns", "INVALID_INPUT"],
    ["..sns", "INVALID_INPUT"],
    ["a..sns", "INVALID_INPUT"],
    [".a.sns", "INVALID_INPUT"],
    ["a.b.c.sns", "INVALID_INPUT"],
    ["a.b.c.sol", "INVALID_INPUT"],
    ["a.sns", "ok"],
    ["a.b.sol", "ok"],
    ["ünï.sns", "ok"],
  ])("%j → %s", (raw, expected) => {
    expect(codeOf(raw)).toBe(expected);
  });

  it("checks the suffix before the labels", () => {
    // Empty labels but a bad suffix: the suffix error wins.
    expect(codeOf("a..b.com")).toBe("UNSUPPORTED_TLD");
  });

  it("treats .sol as the second registry suffix, not as a label", () => {
    expect(parseFullDomain("x.sol.sns")).toEqual({ tld: ".sns", name: "x.sol", labels: ["x", "sol"] });
  });
});
