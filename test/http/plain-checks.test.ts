import { describe, expect, it } from "vitest";
import type { z } from "@hono/zod-openapi";
import {
  domainNameParam,
  fullDomainParam,
  parentNameParam,
  plainCheckOf,
  pubkeyParam,
  rejection,
} from "../../src/http/openapi/request-schemas.js";

/** What parsing `raw` with `schema` gives: the value, or the error the route would throw. */
function throughSchema(schema: z.ZodType, raw: string): { value?: unknown; error?: Error } {
  const result = schema.safeParse(raw);
  return result.success ? { value: result.data } : { error: rejection(result.error) };
}

function throughPlainCheck(schema: z.ZodType, raw: string): { value?: unknown; error?: Error } {
  const check = plainCheckOf(schema);
  if (!check) throw new Error("no plain check registered");
  try {
    return { value: check(raw) };
  } catch (error) {
    return { error: error as Error };
  }
}

const NAMES = [
  "bonfida.sns",
  "  Bonfida.SNS  ",
  "dex.bonfida.sol",
  "a.b.bonfida.sns",
  "bonfida.com",
  "a.b.bonfida.com",
  ".sns",
  "..sns",
  "bonfida..sns",
  "",
  " ",
  "bonfida",
  "dex.bonfida",
  "a.b.c",
  "sns",
  "héllo.sns",
  "ÅNGSTRÖM",
  "a".repeat(300) + ".sns",
  "bonfida.sns.",
  "\u0000.sns",
];
const KEYS = [
  "Hbn1ZdzThM2Hhd4V79imRRHFBsnjzskG6j9GZto8fSs7",
  "11111111111111111111111111111111",
  " Hbn1ZdzThM2Hhd4V79imRRHFBsnjzskG6j9GZto8fSs7",
  "Hbn1ZdzThM2Hhd4V79imRRHFBsnjzskG6j9GZto8fSs0",
  "1111111111111111111111111111111",
  "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz",
  "",
  "not-a-key",
];

describe("plain path-parameter checks answer as their schemas", () => {
  const cases: [string, z.ZodType, readonly string[]][] = [
    ["fullDomainParam", fullDomainParam, NAMES],
    ["domainNameParam", domainNameParam, NAMES],
    ["parentNameParam", parentNameParam, NAMES],
    ["pubkeyParam", pubkeyParam, [...KEYS, ...NAMES]],
  ];
  for (const [name, schema, inputs] of cases) {
    it(`${name}: same value, or an error of the same type and message`, () => {
      for (const raw of inputs) {
        const expected = throughSchema(schema, raw);
        const actual = throughPlainCheck(schema, raw);
        if (expected.error) {
          expect(actual.error, raw).toBeInstanceOf(expected.error.constructor);
          expect(actual.error?.message, raw).toBe(expected.error.message);
          expect((actual.error as { code?: unknown }).code, raw).toBe((expected.error as { code?: unknown }).code);
        } else {
          expect(actual, raw).toEqual(expected);
        }
      }
    });
  }
});
