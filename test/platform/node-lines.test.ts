import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import semver from "semver";
import { describe, expect, it } from "vitest";
import { nodeLineWarning } from "../../src/platform/node/node-line.js";
import { startChildGateway } from "../../testkit/child-gateway.js";

// The Node lines a user may have: the oldest of each supported line (20.19, 22.12, 24.0). `npm ci` warns
// (EBADENGINE) for any installed package whose `engines` refuses the running Node, so every installed
// package must admit each of them.
const LINES = ["20.19.0", "22.12.0", "24.0.0"];
const root = new URL("../../", import.meta.url);
const read = (path: string) => JSON.parse(readFileSync(new URL(path, root), "utf8")) as Record<string, unknown>;

describe("the Node lines the project runs on", () => {
  it("package.json's engines admits each supported line, and no older one", () => {
    const engines = (read("package.json").engines as { node: string }).node;
    for (const line of LINES) expect(semver.satisfies(line, engines), `${line} against ${engines}`).toBe(true);
    // Lines where an installed package refuses to install (vite and rolldown: ^20.19.0 || >=22.12.0).
    for (const refused of ["20.18.3", "21.7.3", "22.11.0"])
      expect(semver.satisfies(refused, engines), refused).toBe(false);
  });

  it("every installed package admits each supported line (npm ci prints no EBADENGINE warning)", () => {
    const packages = read("package-lock.json").packages as Record<string, { engines?: { node?: string } | string[] }>;
    const refused: string[] = [];
    let checked = 0;
    for (const [path, entry] of Object.entries(packages)) {
      const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      // Optional packages for other platforms are in the lockfile but never installed here, and never checked by npm.
      if (!range || path === "" || !existsSync(new URL(`${path}/package.json`, root))) continue;
      checked++;
      for (const line of LINES) if (!semver.satisfies(line, range)) refused.push(`${path} (${range}) refuses ${line}`);
    }
    expect(refused).toEqual([]);
    expect(checked).toBeGreaterThan(50);
  });

  it("@solana/errors loads, and its command-line tool runs on the commander that package.json's overrides pins", async () => {
    const errors = await import("@solana/errors");
    expect(
      new errors.SolanaError(errors.SOLANA_ERROR__ADDRESSES__INVALID_BASE58_ENCODED_ADDRESS, { putativeAddress: "x" })
        .context,
    ).toMatchObject({ putativeAddress: "x" });
    const require = createRequire(new URL("node_modules/@solana/errors/package.json", root));
    const commanderDir = dirname(require.resolve("commander"));
    const commander = JSON.parse(readFileSync(join(commanderDir, "package.json"), "utf8")) as {
      version: string;
      engines: { node: string };
    };
    expect(semver.satisfies("20.19.0", commander.engines.node), `commander ${commander.version}`).toBe(true);
    const cli = new URL("node_modules/@solana/errors/bin/cli.mjs", root).pathname;
    const decoded = spawnSync(
      process.execPath,
      [cli, "decode", "--", String(errors.SOLANA_ERROR__ADDRESSES__INVALID_BASE58_ENCODED_ADDRESS)],
      {
        encoding: "utf8",
      },
    );
    expect(decoded.status, decoded.stderr).toBe(0);
    expect(decoded.stdout).toMatch(/base58/i);
  });
});

describe("the startup warning for a Node line past its end of life", () => {
  it("names Node 20 once its end of life has passed, and no supported line", () => {
    const today = new Date("2026-11-27T00:00:00Z");
    expect(nodeLineWarning("v20.19.0", today)).toMatch(/^Node\.js 20 is past its end of life \(2026-04-30\)/);
    expect(nodeLineWarning("v20.20.2", new Date("2026-04-29T23:00:00Z"))).toBeUndefined();
    expect(nodeLineWarning("v22.12.0", today)).toBeUndefined();
    expect(nodeLineWarning("v24.0.0", today)).toBeUndefined();
    expect(nodeLineWarning("v22.12.0", new Date("2027-05-01T00:00:00Z"))).toMatch(/^Node\.js 22 is past/);
    // An odd line, never long supported.
    expect(nodeLineWarning("v23.11.0", today)).toMatch(/^Node\.js 23 is past its end of life \(2025-06-01\)/);
    // A line this table does not know (a newer one) is not warned about.
    expect(nodeLineWarning("v26.1.0", today)).toBeUndefined();
  });

  it("the gateway logs it once at startup on this Node when its line is past end of life, then answers", async () => {
    const gateway = await startChildGateway({});
    try {
      const health = await fetch(`${gateway.url}/health`);
      expect(health.status).toBe(200);
      const expected = nodeLineWarning(process.version, new Date());
      const warnings = gateway
        .output()
        .split("\n")
        .filter((line) => line.includes("past its end of life"));
      expect(warnings).toHaveLength(expected ? 1 : 0);
      if (expected) expect(JSON.parse(warnings[0]!)).toMatchObject({ level: 40, msg: expected, node: process.version });
    } finally {
      await gateway.stop();
    }
  });
});
