// `npm test`'s checks: the type check, lint and the format check. Each runs on one core, so they run side
// by side; each one's output is printed whole and in this order, and the run fails when any of them fails.
import { spawn } from "node:child_process";
import { realpathSync } from "node:fs";
import { pathToFileURL } from "node:url";

export const CHECKS = ["typecheck", "lint", "format:check"];

const npm = process.platform === "win32" ? "npm.cmd" : "npm";

function run(script) {
  return new Promise((done) => {
    const child = spawn(npm, ["run", "--silent", script], { stdio: ["ignore", "pipe", "pipe"] });
    const output = [];
    child.stdout.on("data", (chunk) => output.push(chunk));
    child.stderr.on("data", (chunk) => output.push(chunk));
    child.on("error", (error) => done({ script, code: 1, output: [Buffer.from(`${error.message}\n`)] }));
    child.on("close", (code) => done({ script, code: code ?? 1, output }));
  });
}

/** Runs every check side by side; resolves to the number that failed, having printed their outputs. */
export async function runChecks() {
  const results = await Promise.all(CHECKS.map(run));
  let failed = 0;
  for (const { script, code, output } of results) {
    process.stdout.write(`> ${script}: ${code === 0 ? "passed" : `failed (exit ${code})`}\n`);
    for (const chunk of output) process.stdout.write(chunk);
    if (code !== 0) failed++;
  }
  return failed;
}

// Run as a script (through any symlink to it), not when imported (test/platform/ci-run.test.ts reads CHECKS).
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  process.exitCode = (await runChecks()) === 0 ? 0 : 1;
}
