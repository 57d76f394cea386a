import { describe, expect, it } from "vitest";
import { utf8Length } from "../../src/http/answer/utf8-length.js";
import { createRng } from "../../testkit/rng.js";

const encoder = new TextEncoder();

describe("utf8Length", () => {
  it("counts TextEncoder's bytes for the edge cases", () => {
    const edges = [
      "",
      "a",
      "\u0000",
      "\u007f",
      "\u0080",
      "\u07ff",
      "\u0800",
      "\uffff",
      "\ud83d\ude00",
      "\ud83d",
      "\ude00",
      "\ude00\ud83d",
      "x\ud83d",
      "\ud83d\ud83d\ude00",
      '{"s":"ok","result":"é✓😀"}',
    ];
    for (const text of edges) expect(utf8Length(text), JSON.stringify(text)).toBe(encoder.encode(text).length);
  });

  // Strings drawn from every range a UTF-16 code unit can fall in (ASCII, two-byte, three-byte, high and low
  // surrogates, alone or paired), so lone and paired surrogates come in every position.
  it("counts TextEncoder's bytes for 20,000 generated strings", () => {
    const rng = createRng(11);
    const draw = (n: number) => rng.int(0, n - 1);
    const ranges: [number, number][] = [
      [0, 0x80],
      [0x80, 0x800],
      [0x800, 0xd800],
      [0xd800, 0xdc00],
      [0xdc00, 0xe000],
      [0xe000, 0x10000],
    ];
    for (let i = 0; i < 20_000; i++) {
      const units = Array.from({ length: draw(24) }, () => {
        const [low, high] = ranges[draw(i % 3 === 0 ? 1 : ranges.length)]!;
        return low + draw(high - low);
      });
      const text = String.fromCharCode(...units);
      expect(utf8Length(text), JSON.stringify(units)).toBe(encoder.encode(text).length);
    }
  });
});
