// Compiles src/ into dist/ only when dist/ is missing or older than a source
// file, so `npm start` starts at once after the first build (tsc takes seconds).
import { spawnSync } from "node:child_process";
import { readdirSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

const sources = Math.max(
  newest(join(root, "src")),
  ...["tsconfig.json", "tsconfig.build.json", "package-lock.json"].map((file) => statSync(join(root, file)).mtimeMs),
);
let built = 0;
try {
  built = statSync(join(root, "dist/.built")).mtimeMs;
} catch {
  // never built
}
if (built < sources) {
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  const result = spawnSync(process.execPath, [tsc, "-p", join(root, "tsconfig.build.json")], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
  writeFileSync(join(root, "dist/.built"), `${new Date().toISOString()}\n`);
}
