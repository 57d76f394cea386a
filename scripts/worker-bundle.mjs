// Bundles the Workers entry (src/platform/workers/main.ts) into dist-worker/worker.js.
// The same options serve the check that the platform-free modules reach no
// Node API (test/platform/platform-free.test.ts).
import { build } from "esbuild";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const require = createRequire(import.meta.url);

/**
 * `import text from "pkg/file?text"`: the file's contents as a string. Workers
 * have no file system, so packaged files the app serves (the /docs assets)
 * travel inside the bundle.
 */
const textImports = {
  name: "text-imports",
  setup(build) {
    build.onResolve({ filter: /\?text$/ }, (args) => ({
      path: require.resolve(args.path.slice(0, -"?text".length)),
      namespace: "text",
    }));
    build.onLoad({ filter: /.*/, namespace: "text" }, async (args) => ({
      contents: await readFile(args.path, "utf8"),
      loader: "text",
    }));
  },
};

/** esbuild options for a Workers-style bundle: ESM, no Node built-ins, browser/worker package variants. */
export const workerBuildOptions = {
  absWorkingDir: root,
  bundle: true,
  format: "esm",
  platform: "neutral",
  target: "es2022",
  mainFields: ["module", "main"],
  conditions: ["workerd", "worker", "browser"],
  // Left as imports so a test can see any that slipped in; workerd would refuse them.
  external: ["node:*"],
  logLevel: "silent",
  plugins: [textImports],
  // The package version `/ready` reports (src/platform/workers/main.ts): Workers have no package.json to read.
  define: {
    __SNS_GATEWAY_VERSION__: JSON.stringify(
      JSON.parse(await readFile(new URL("../package.json", import.meta.url), "utf8")).version,
    ),
  },
};

export const WORKER_ENTRY = "src/platform/workers/main.ts";
export const WORKER_OUTFILE = "dist-worker/worker.js";

/** Writes the bundle; returns esbuild's metafile. */
export async function bundleWorker({ minify = true } = {}) {
  const result = await build({
    ...workerBuildOptions,
    entryPoints: [WORKER_ENTRY],
    outfile: WORKER_OUTFILE,
    minify,
    metafile: true,
    legalComments: "none",
  });
  return result.metafile;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const metafile = await bundleWorker();
  const bytes = metafile.outputs[WORKER_OUTFILE]?.bytes ?? 0;
  console.log(`${WORKER_OUTFILE}: ${(bytes / 1024).toFixed(1)} KiB`);
}
