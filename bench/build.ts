import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

/**
 * The server children run as plain compiled JavaScript, as in production
 * (`node dist/node.js`): a TypeScript loader in the measured process would add
 * ~30 MB of RSS and a loader thread that is not part of the gateway.
 * Output goes under node_modules/.cache so package imports resolve and git ignores it.
 */
export const BUILD_DIR = fileURLToPath(new URL("../node_modules/.cache/sns-gateway-bench/", import.meta.url));
const PROJECT = fileURLToPath(new URL("./tsconfig.bench.json", import.meta.url));

export function buildChildren(): { readonly ms: number; readonly diagnostics: string } {
  const started = performance.now();
  mkdirSync(BUILD_DIR, { recursive: true });
  // Inside node_modules no package scope is inherited, so say that the output is ESM.
  writeFileSync(`${BUILD_DIR}package.json`, `${JSON.stringify({ type: "module", private: true })}\n`);
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  const result = spawnSync(
    process.execPath,
    [tsc, "-p", PROJECT, "--outDir", BUILD_DIR, "--tsBuildInfoFile", `${BUILD_DIR}.tsbuildinfo`],
    { encoding: "utf8" },
  );
  // Type errors still emit JavaScript; they are reported, not fatal, because
  // src/ may be mid-edit by others while the bench runs.
  if (result.error) throw result.error;
  return { ms: Math.round(performance.now() - started), diagnostics: (result.stdout + result.stderr).trim() };
}

/** Compiled path of a bench child script, e.g. `children/gateway`. */
export const childScript = (name: string): string => `${BUILD_DIR}bench/${name}.js`;
