import { readFileSync } from "node:fs";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module shared with the bundle script
import { workerBuildOptions } from "../../scripts/worker-bundle.mjs";

/** Modules allowed to use Node APIs: only the Node platform's own files, never reached from these entries. */
const ENTRIES = ["src/gateway.ts", "src/platform/workers/main.ts"];
const NODE_ONLY_PACKAGES = /node_modules\/(undici|pino|@hono\/node-server)\//;
const NODE_GLOBALS = /\b(process\s*\.|Buffer\b|setImmediate\b|clearImmediate\b|require\s*\()/;

const withoutComments = (source: string) => source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:])\/\/.*$/gm, "$1");

describe("the app is platform-free", () => {
  it.each(ENTRIES)("%s reaches no node:* module, no Node-only package and no Node global", async (entry) => {
    const { metafile } = await build({ ...workerBuildOptions, entryPoints: [entry], write: false, metafile: true });
    const inputs = Object.entries(metafile!.inputs);
    const builtins = inputs.flatMap(([path, input]) =>
      input.imports.filter((i) => i.path.startsWith("node:") || i.external).map((i) => `${path} → ${i.path}`),
    );
    expect(builtins).toEqual([]);
    expect(inputs.map(([path]) => path).filter((path) => NODE_ONLY_PACKAGES.test(path))).toEqual([]);
    const ownSources = inputs.map(([path]) => path).filter((path) => path.startsWith("src/"));
    expect(ownSources.length).toBeGreaterThan(20);
    const offenders = ownSources.filter((path) => NODE_GLOBALS.test(withoutComments(readFileSync(path, "utf8"))));
    expect(offenders).toEqual([]);
  });
});
