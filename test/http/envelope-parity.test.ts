import { describe, expect, it } from "vitest";
import { classify } from "../../src/http/answer/classify.js";
import { envelopeHeaders, errorText, okBody, okText } from "../../src/http/answer/envelope.js";
import { OverloadedError, RpcError, type RpcFailureKind } from "../../src/rpc/errors.js";
import { SnsError, type SnsErrorCode } from "../../src/sns/errors.js";

// envelope.ts splices string results into the envelope's fixed text and
// builds header records in the order a `Headers` copy lists them, instead of
// JSON.stringify of an object and Hono's `Headers`. These are the same bytes:
// checked over generated strings (every character class JSON escapes or
// passes through, lone surrogates included) and every failure message.

/** Strings of 0–8 code units drawn from the classes JSON.stringify treats differently, seeded. */
function* generatedStrings(count: number): Generator<string> {
  const classes = [
    () => String.fromCharCode(Math.floor(next() * 0x20)), // control characters
    () => ['"', "\\", "/", "\u2028", "\u2029", "\u007f"][Math.floor(next() * 6)]!,
    () => String.fromCharCode(0x20 + Math.floor(next() * 0x5f)), // printable ASCII
    () => String.fromCharCode(0xd800 + Math.floor(next() * 0x800)), // lone surrogates
    () => String.fromCodePoint(0x10000 + Math.floor(next() * 0x1000)), // astral pairs
    () => String.fromCharCode(0xa0 + Math.floor(next() * 0xff00)), // the rest of the BMP
  ];
  let seed = 7;
  function next(): number {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  }
  for (let i = 0; i < count; i++) {
    let text = "";
    const length = Math.floor(next() * 9);
    for (let j = 0; j < length; j++) text += classes[Math.floor(next() * classes.length)]!();
    yield text;
  }
}

// Records over the union types: the compiler fails this file when a code or kind is added and not listed.
const SNS_CODES = Object.keys({
  INVALID_INPUT: true,
  UNSUPPORTED_TLD: true,
  DOMAIN_NOT_FOUND: true,
  ACCOUNT_NOT_FOUND: true,
  RECORD_NOT_FOUND: true,
  MALFORMED_ACCOUNT: true,
  RECORD_MALFORMED: true,
  WRONG_VALIDATION: true,
  INVALID_ROA: true,
  INVALID_RECORD_DATA: true,
  NFT_OWNER_NOT_FOUND: true,
  PDA_OWNER_NOT_ALLOWED: true,
  SRS_OWNER_NOT_FOUND: true,
  SRS_MISMATCH: true,
  DOMAIN_EXPIRED: true,
} satisfies Record<SnsErrorCode, true>) as SnsErrorCode[];
const RPC_KINDS = Object.keys({
  jsonrpc: true,
  "http-status": true,
  "invalid-response": true,
  network: true,
  timeout: true,
  "too-large": true,
  budget: true,
} satisfies Record<RpcFailureKind, true>) as RpcFailureKind[];

describe("envelope text and headers", () => {
  it("a spliced string result is JSON.stringify's envelope, over 20,000 generated strings", () => {
    for (const text of generatedStrings(20_000)) {
      expect(okText(text)).toBe(JSON.stringify({ s: "ok", result: text }));
      expect(okBody(text)).toBe(JSON.stringify({ s: "ok", result: text }));
      expect(errorText(text)).toBe(JSON.stringify({ s: "error", result: text }));
    }
  });

  it("every failure's body is JSON.stringify's envelope of its message", () => {
    const failures = [
      ...SNS_CODES.map((code) => new SnsError(code)),
      ...RPC_KINDS.map((kind) => new RpcError(kind, "x")),
      new OverloadedError("full"),
      new Error("bug"),
    ];
    for (const failure of failures) {
      const { message } = classify(failure);
      expect(errorText(message)).toBe(JSON.stringify({ s: "error", result: message }));
    }
  });

  it("header records list their names as a Headers copy does, extra headers included", () => {
    const extras: (Record<string, string> | undefined)[] = [
      undefined,
      { "retry-after": "1" },
      { "content-security-policy": "x", "ratelimit-limit": "5", allow: "GET" },
    ];
    for (const extra of extras) {
      const record = envelopeHeaders("no-store", "id-1", extra);
      expect(Object.keys(record)).toEqual([...new Headers(record).keys()]);
    }
  });
});
