import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

/**
 * Compiles a TypeScript project to plain JavaScript in `outDir`, so a child
 * process runs as in production (`node dist/platform/node/main.js`): a TypeScript loader in
 * a measured process would add ~30 MB of RSS and a loader thread.
 * Output belongs under node_modules/.cache so package imports resolve and git ignores it.
 * Type errors still emit JavaScript; they are returned, not thrown. `typeCheck: false` emits without
 * checking types (`--noCheck`, about half the time): for callers run after the type check (`npm test`).
 */
export function compileProject(
  project: string,
  outDir: string,
  { typeCheck = true }: { readonly typeCheck?: boolean } = {},
): { readonly ms: number; readonly diagnostics: string } {
  const started = performance.now();
  mkdirSync(outDir, { recursive: true });
  // Inside node_modules no package scope is inherited, so say that the output is ESM.
  writeFileSync(`${outDir}/package.json`, `${JSON.stringify({ type: "module", private: true })}\n`);
  const buildInfo = `${outDir}/.tsbuildinfo`;
  const emitted = `${outDir}/.emitted`;
  // tsc --incremental decides what to emit from the build info alone, never looking whether its outputs are
  // still there: when one is gone (a partly cleaned cache), the build info goes too, and all is emitted again.
  if (existsSync(buildInfo) && !allPresent(outDir, emitted)) rmSync(buildInfo);
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  const result = spawnSync(
    process.execPath,
    // Incremental: a later run over unchanged sources (the next `vitest run`, CI's second Node line) reads
    // the build info and emits nothing, a few seconds instead of a whole compile.
    [
      tsc,
      "-p",
      project,
      "--outDir",
      outDir,
      "--incremental",
      "--tsBuildInfoFile",
      buildInfo,
      ...(typeCheck ? [] : ["--noCheck"]),
    ],
    { encoding: "utf8" },
  );
  if (result.error) throw result.error;
  writeFileSync(emitted, listJs(outDir).join("\n"));
  return { ms: Math.round(performance.now() - started), diagnostics: (result.stdout + result.stderr).trim() };
}

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/**
 * `node_modules/.cache/<name>-<checkout>/`: one output folder per checkout of
 * the project. Checkouts that share one node_modules (git worktrees linking
 * it) would otherwise compile their different sources into the same files.
 */
export function cacheDirFor(name: string): string {
  const checkout = createHash("sha256").update(ROOT).digest("hex").slice(0, 12);
  return `${ROOT}node_modules/.cache/${name}-${checkout}/`;
}

/** The `.js` files under `dir`, relative to it. */
function listJs(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).filter((path) => path.endsWith(".js")).sort();
}

/** Every file the last compile left in `outDir` (listed in `emitted`) is still there. */
function allPresent(outDir: string, emitted: string): boolean {
  if (!existsSync(emitted)) return false;
  const listed = readFileSync(emitted, "utf8").split("\n").filter(Boolean);
  return listed.length > 0 && listed.every((path) => existsSync(`${outDir}/${path}`));
}
