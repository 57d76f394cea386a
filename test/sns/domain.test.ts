import { describe, expect, it } from "vitest";
import { parseFullDomain } from "../../src/sns/domain.js";
import type { Address } from "@solana/kit";
import { SnsError } from "../../src/sns/errors.js";
import { assertSameTarget } from "../../src/sns/queries/resolve.js";

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
    expect(parseFullDomain("\tDex.Bonfida.Sol\n")).toEqual({
      tld: ".sol",
      name: "dex.bonfida",
      labels: ["dex", "bonfida"],
    });
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

describe("SRS cross-check (for /safe-resolve once SRS-backed .sol is enabled)", () => {
  it("passes a common target through and refuses a disagreement with SRS_MISMATCH", () => {
    const a = "Crf8hzfthWGbGbLTVCiqRqV5MVnbpHB1L9KQMd6gsinb" as Address;
    const b = "HoFfFXqFHAC8RP3duuQNzag1ieUwJRBv1HtRNiWFq4Qu" as Address;
    expect(assertSameTarget("bonfida", a, a)).toBe(a);
    expect(() => assertSameTarget("bonfida", a, b)).toThrow(expect.objectContaining({ code: "SRS_MISMATCH" }));
  });
});
