import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { COMPILED_ENTRY_VARIABLE, compiledEntry } from "./child-gateway.js";
import { cacheDirFor } from "./compile.js";
import { WORKER_BUNDLE_VARIABLE } from "./worker-bundle-file.js";
// @ts-expect-error: a plain ES module shared with `npm run build:worker`
import { WORKER_ENTRY, workerBuildOptions } from "../scripts/worker-bundle.mjs";

/**
 * vitest's global setup: `src/` compiled as `npm start` runs it and the Workers bundle built, once per
 * `vitest run`, before any test file starts. The paths travel to every test process in the environment
 * (vitest copies the runner's environment into each worker it forks), so a test file starts a child gateway
 * or a workerd gateway without compiling anything (tsc takes 10–20 s of CPU, once per file before).
 * Each project inherits this setup: the first one to run it builds, the others find the variables set.
 */
export default async function setup(): Promise<void> {
  // dist/ made fresh as `npm start`, `npm run demo` and `npm run localnet` make it before they start (the
  // tests that run those commands would otherwise each wait for a whole build), on the other core meanwhile.
  const dist = freshDist();
  process.env[COMPILED_ENTRY_VARIABLE] ??= compiledEntry({ typeCheck: false });
  if (process.env[WORKER_BUNDLE_VARIABLE] === undefined) {
    const result = await build({ ...workerBuildOptions, entryPoints: [WORKER_ENTRY], write: false });
    const file = `${cacheDirFor("sns-gateway-worker")}worker.js`;
    mkdirFor(file);
    writeFileSync(file, result.outputFiles![0]!.text);
    process.env[WORKER_BUNDLE_VARIABLE] = file;
  }
  await dist;
}

/**
 * Runs scripts/build-if-stale.mjs; resolves when it ends, however it ends (a failed build is left for the
 * commands that build to report, as they would without this).
 */
function freshDist(): Promise<void> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [fileURLToPath(new URL("../scripts/build-if-stale.mjs", import.meta.url))], {
      stdio: "ignore",
    });
    child.on("error", () => done());
    child.on("close", () => done());
  });
}

function mkdirFor(file: string): void {
  mkdirSync(file.slice(0, file.lastIndexOf("/")), { recursive: true });
}
