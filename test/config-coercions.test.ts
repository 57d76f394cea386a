import { describe, expect, it } from "vitest";
import { CONFIG_VARIABLES, ConfigError, loadConfig } from "../src/config.js";

// src/config.ts reads integers, booleans and URLs with zod's own coercions
// (z.coerce.number, z.stringbool, z.url). Their rules are the gateway's,
// stated here as plain code and checked on every variable of each kind over
// generated values: what is accepted, the value read, and the message.

const defaults = loadConfig({}) as unknown as Record<string, unknown>;

const errorOf = (env: Record<string, string>): string | undefined => {
  try {
    loadConfig(env);
    return undefined;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.message;
  }
};

/** The configuration's plain values by path (`rpcBudget.maxCalls`). */
function leaves(value: unknown, path = ""): [string, unknown][] {
  if (value === null || typeof value !== "object" || value instanceof Set || Array.isArray(value))
    return [[path, value]];
  return Object.entries(value).flatMap(([key, inner]) => leaves(inner, path ? `${path}.${key}` : key));
}
const defaultLeaves = new Map(leaves(defaults));

/** The one value of the configuration that `env` changes from the defaults, if any. */
function changed(env: Record<string, string>): unknown {
  const same = (a: unknown, b: unknown) =>
    typeof a === "object" && a !== null
      ? JSON.stringify(a instanceof Set ? [...a] : a) === JSON.stringify(b instanceof Set ? [...b] : b)
      : Object.is(a, b);
  const differing = leaves(loadConfig(env)).filter(([path, value]) => !same(value, defaultLeaves.get(path)));
  return differing[0]?.[1];
}

/** Integer spellings around a range: inside, at and past both ends, and what Number() reads oddly. */
function integerValues(min: number, max: number): string[] {
  const near = [min - 1, min, min + 1, Math.floor((min + max) / 2), max - 1, max, max + 1].map(String);
  return [
    ...near,
    "",
    " ",
    " 12 ",
    "1.5",
    "1e3",
    "0x10",
    "+5",
    "-0",
    "abc",
    "Infinity",
    "NaN",
    "9007199254740993",
    "00012",
    "1_000",
  ];
}

const FLAG_SPELLINGS = ["0", "1", "true", "false", ""];
const FLAG_MESSAGE = `Invalid option: expected one of ${FLAG_SPELLINGS.map((spelling) => JSON.stringify(spelling)).join("|")}`;

const integers = CONFIG_VARIABLES.flatMap((name) => {
  const range = /must be an integer in \[(\d+), (\d+)\]/.exec(errorOf({ [name]: "abc" }) ?? "");
  return range ? [[name, Number(range[1]), Number(range[2])] as const] : [];
});
const flags = CONFIG_VARIABLES.filter((name) => errorOf({ [name]: "maybe" })?.endsWith(`${name}: ${FLAG_MESSAGE}`));

describe("configuration coercions", () => {
  it("finds the integer and boolean settings", () => {
    expect(integers.length).toBeGreaterThan(15);
    expect(flags).toContain("ALLOW_PRIVATE_RPC_OVERRIDE");
  });

  it.each(integers)("%s: blank is the default, else an integer in [%d, %d]", (name, min, max) => {
    for (const value of integerValues(min, max)) {
      const blank = value.trim() === "";
      const number = Number(value);
      const accepted = blank || (Number.isSafeInteger(number) && number >= min && number <= max);
      const error = errorOf({ [name]: value });
      if (!accepted) {
        expect(error, `${name}=${JSON.stringify(value)}`).toBe(
          `invalid configuration: ${name}: must be an integer in [${min}, ${max}]`,
        );
        continue;
      }
      expect(error, `${name}=${JSON.stringify(value)}`).toBeUndefined();
      const read = changed({ [name]: value });
      if (read !== undefined) expect(read, `${name}=${JSON.stringify(value)}`).toBe(number);
      if (blank) expect(read).toBeUndefined();
    }
  });

  it.each(flags.map((name) => [name]))("%s: true or 1, false, 0 or empty, nothing else", (name) => {
    for (const value of [...FLAG_SPELLINGS, "TRUE", "yes", "on", " true", "2"]) {
      const error = errorOf({ [name]: value });
      if (!FLAG_SPELLINGS.includes(value)) {
        expect(error, `${name}=${JSON.stringify(value)}`).toBe(`invalid configuration: ${name}: ${FLAG_MESSAGE}`);
        continue;
      }
      expect(error).toBeUndefined();
      const config = loadConfig({ [name]: value }) as unknown as Record<string, unknown>;
      const truthy = value === "true" || value === "1";
      expect(Object.values(config).filter((field) => field === true).length).toBe(
        Object.values(defaults).filter((field) => field === true).length + (truthy ? 1 : 0),
      );
    }
  });

  it("RPC_URL: http(s) URLs as the URL standard parses them", () => {
    for (const url of [
      "http://a",
      "https://a.example/x?k=1",
      "http://[::1]:8899",
      "http:/a",
      "HTTP://A.EXAMPLE",
      " https://a.example ",
    ]) {
      expect(errorOf({ RPC_URL: url }), url).toBeUndefined();
    }
    for (const url of ["ftp://a", "http://", "javascript:alert(1)", "a.example", "https://"]) {
      expect(errorOf({ RPC_URL: url }), url).toBe("invalid configuration: RPC_URL: must be an http(s) URL");
    }
  });
});
