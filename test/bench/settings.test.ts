import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SECTIONS, gatewayOverrides, knobTable, settingsFor } from "../../bench/settings.js";

// bench/settings.ts is the one place a benchmark knob is declared; bench/README.md documents each one.

const readme = readFileSync(new URL("../../bench/README.md", import.meta.url), "utf8");
const knobsTable = readme.slice(readme.indexOf("## Knobs"), readme.indexOf("\n## ", readme.indexOf("## Knobs") + 1));

describe("bench settings", () => {
  it.each(knobTable().map((row) => [row.env, row.sections] as const))(
    "bench/README.md's Knobs table lists %s (read by %s)",
    (env) => {
      expect(knobsTable, `add a row for \`${env}\` to the Knobs table of bench/README.md`).toContain(`\`${env}\``);
    },
  );

  it("the Knobs table lists no variable the settings do not declare", () => {
    const declared = new Set(knobTable().map((row) => row.env));
    const listed = [...knobsTable.matchAll(/`(BENCH_[A-Z0-9_]+)`/g)].map((match) => match[1]!);
    expect(listed.filter((env) => !declared.has(env))).toEqual([]);
  });

  it.each(Object.keys(SECTIONS))("bench/README.md shows how to run the %s section", (section) => {
    expect(readme).toContain(`npm run bench -- ${section}`);
  });

  it("reads each knob from the environment, or its default", () => {
    expect(settingsFor("scale", {})).toMatchObject({
      sizes: [1000, 100_000],
      connections: 64,
      durationS: 5,
      profile: "0",
    });
    expect(settingsFor("scale", { BENCH_NAMES: "50, 200", BENCH_DURATION_S: "2" })).toMatchObject({
      sizes: [50, 200],
      durationS: 2,
    });
    expect(settingsFor("resolve", { BENCH_ONLY: "0ms-c64, 20ms-c64", BENCH_PROFILE: "all" })).toMatchObject({
      only: ["0ms-c64", "20ms-c64"],
      profile: "all",
      gatewayNodeFlags: undefined,
    });
    expect(() => settingsFor("resolve", { BENCH_ROUNDS: "-1" })).toThrow("BENCH_ROUNDS must be a non-negative number");
    expect(() => settingsFor("resolve", { BENCH_PROFILE: "yes" })).toThrow("BENCH_PROFILE must be one of 0, 1, all");
  });

  it("passes the gateway's own settings to the gateways, never the address the bench gives them", () => {
    expect(
      gatewayOverrides({ NFT_HOLDER_TTL_MS: "2000", RPC_URL: "http://x", PORT: "1", HOME: "/root", BENCH_ROUNDS: "1" }),
    ).toEqual({
      NFT_HOLDER_TTL_MS: "2000",
      RPC_RATE_LIMIT: "0",
      RPC_OVERRIDE_RATE_LIMIT: "0",
    });
  });

  it("starts gateways without a per-client call allowance (the load is one client) unless the environment sets one", () => {
    expect(gatewayOverrides({})).toEqual({ RPC_RATE_LIMIT: "0", RPC_OVERRIDE_RATE_LIMIT: "0" });
    expect(gatewayOverrides({ RPC_RATE_LIMIT: "500" })).toEqual({
      RPC_RATE_LIMIT: "500",
      RPC_OVERRIDE_RATE_LIMIT: "0",
    });
  });
});
