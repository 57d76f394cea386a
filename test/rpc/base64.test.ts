import { base64 } from "@scure/base";
import { describe, expect, it } from "vitest";
import { decodeCanonicalBase64 } from "../../src/rpc/base64.js";
import { createRng } from "../../testkit/rng.js";

/** The strict reference: @scure/base refuses anything but canonical padded base64. */
function reference(text: string): Uint8Array | undefined {
  try {
    return base64.decode(text);
  } catch {
    return undefined;
  }
}

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const NOISE = [...ALPHABET, "=", "-", "_", " ", "\n", "\u00e9", "."];

describe("decodeCanonicalBase64", () => {
  const rng = createRng(20261124);

  it("decodes what a strict decoder decodes, byte for byte", () => {
    for (let n = 0; n < 400; n++) {
      const bytes = Uint8Array.from({ length: n % 130 }, () => rng.int(0, 255));
      const text = base64.encode(bytes);
      expect(decodeCanonicalBase64(text)).toEqual(bytes);
    }
  });

  it("refuses exactly what a strict decoder refuses", () => {
    let refused = 0;
    for (let n = 0; n < 20_000; n++) {
      const valid = base64.encode(Uint8Array.from({ length: rng.int(0, 11) }, () => rng.int(0, 255)));
      const chars = [...valid];
      // One to three edits: replace, insert or drop a character, or drop the padding.
      for (let edits = rng.int(1, 3); edits > 0; edits--) {
        const at = rng.int(0, chars.length);
        const kind = rng.int(0, 3);
        if (kind === 0 && chars.length) chars[Math.min(at, chars.length - 1)] = rng.pick(NOISE);
        else if (kind === 1) chars.splice(at, 0, rng.pick(NOISE));
        else if (kind === 2 && chars.length) chars.splice(Math.min(at, chars.length - 1), 1);
        else while (chars.at(-1) === "=") chars.pop();
      }
      const text = chars.join("");
      const expected = reference(text);
      expect(decodeCanonicalBase64(text), text).toEqual(expected);
      if (expected === undefined) refused++;
    }
    // The edits must have produced both kinds of input.
    expect(refused).toBeGreaterThan(5_000);
    expect(refused).toBeLessThan(19_000);
  });

  it("refuses non-zero unused bits in the last group", () => {
    expect(decodeCanonicalBase64("AQ==")).toEqual(Uint8Array.of(1));
    expect(decodeCanonicalBase64("AR==")).toBeUndefined();
    expect(decodeCanonicalBase64("AAE=")).toEqual(Uint8Array.of(0, 1));
    expect(decodeCanonicalBase64("AAF=")).toBeUndefined();
    expect(decodeCanonicalBase64("")).toEqual(new Uint8Array(0));
  });
});

describe("decodeCanonicalBase64 on account-sized data", () => {
  it("matches a strict decoder on long inputs with one character changed anywhere", () => {
    const rng = createRng(7);
    for (let n = 0; n < 300; n++) {
      const text = base64.encode(rng.bytes(rng.int(100, 1200)));
      const at = rng.int(0, text.length - 1);
      const edited = text.slice(0, at) + rng.pick(NOISE) + text.slice(at + 1);
      expect(decodeCanonicalBase64(edited)).toEqual(reference(edited));
    }
  });
});
