// Bundles the Workers entry (src/platform/workers/main.ts) into dist-worker/worker.js.
// The same options serve the check that the platform-free modules reach no
// Node API (test/platform/platform-free.test.ts).
import { build } from "esbuild";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { constants, gzipSync } from "node:zlib";

const root = fileURLToPath(new URL("..", import.meta.url));
const require = createRequire(import.meta.url);

/**
 * `import gzipped from "pkg/file?gzip-base64"`: the file's bytes gzipped, as
 * base64 text. Workers have no file system, so packaged files the app serves
 * (the /docs assets) travel inside the bundle; compressed, because every
 * isolate's start-up scans each string literal of the script, whether or
 * not a request ever asks for it: 1.9 MB of Swagger UI as text, ~0.6 MB so.
 * src/platform/workers/bundled-docs-assets.ts decompresses on first use.
 */
const gzipImports = {
  name: "gzip-imports",
  setup(build) {
    build.onResolve({ filter: /\?gzip-base64$/ }, (args) => ({
      path: require.resolve(args.path.slice(0, -"?gzip-base64".length)),
      namespace: "gzip-base64",
    }));
    build.onLoad({ filter: /.*/, namespace: "gzip-base64" }, async (args) => {
      const gzipped = gzipSync(await readFile(args.path), { level: constants.Z_BEST_COMPRESSION });
      // The header's operating-system byte is zlib's build's (3 on Linux): "unknown", so every system builds
      // the same bundle (the header's time is already 0).
      gzipped[9] = 0xff;
      return { contents: gzipped.toString("base64"), loader: "text" };
    });
  },
};

/**
 * Parts of zod the gateway never calls, left out of the bundle: `z.locales`
 * (zod's messages in ~50 languages: the gateway answers with its own
 * messages, and the English locale zod falls back to is imported by zod's
 * schemas themselves) and `z.fromJSONSchema`. esbuild cannot drop them: `z`
 * is a namespace object used as a value, so everything it re-exports stays.
 * ~270 KiB of code that every isolate would otherwise parse at start-up.
 */
const unusedZod = {
  name: "unused-zod",
  setup(build) {
    const inZod = (importer) => /[\\/]zod[\\/]v4[\\/](core|classic)[\\/][^\\/]+$/.test(importer);
    // A zod release that moves either file would make the plugin match nothing, silently: the bundle would
    // grow back. Both must be replaced whenever zod is bundled, or the build fails.
    const replaced = new Set();
    let zodBundled = false;
    build.onResolve({ filter: /^zod(\/.*)?$/ }, () => {
      zodBundled = true;
      return undefined;
    });
    build.onEnd((result) => {
      if (!zodBundled || result.errors.length > 0) return;
      const missing = ["locales", "from-json-schema"].filter((part) => !replaced.has(part));
      if (missing.length > 0) {
        throw new Error(`unused-zod: zod's ${missing.join(" and ")} import was not found (a zod release moved it?)`);
      }
    });
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => {
      if (!inZod(args.importer)) return undefined;
      replaced.add("locales");
      return { path: join(dirname(args.importer), "../locales/index.js"), namespace: "zod-english-only" };
    });
    build.onLoad({ filter: /.*/, namespace: "zod-english-only" }, (args) => ({
      contents: 'export { default as en } from "./en.js";',
      resolveDir: dirname(args.path),
    }));
    build.onResolve({ filter: /^\.\/from-json-schema\.js$/ }, (args) => {
      if (!inZod(args.importer)) return undefined;
      replaced.add("from-json-schema");
      return { path: join(dirname(args.importer), "from-json-schema.js"), namespace: "zod-without-from-json-schema" };
    });
    build.onLoad({ filter: /.*/, namespace: "zod-without-from-json-schema" }, () => ({
      contents:
        "export function fromJSONSchema() {\n" +
        '  throw new Error("z.fromJSONSchema is left out of the Workers bundle (scripts/worker-bundle.mjs)");\n' +
        "}\n",
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
  plugins: [gzipImports, unusedZod],
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
