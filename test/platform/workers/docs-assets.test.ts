import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DOCS_ASSET_NAMES } from "../../../src/http/docs-assets.js";
import { nodeDocsAssets } from "../../../src/platform/node/docs-assets.js";
import { MAX_DECOMPRESSING, bundledDocsAssets } from "../../../src/platform/workers/bundled-docs-assets.js";
import { OverloadedError } from "../../../src/rpc/errors.js";
import { WORKER_BUNDLE_VARIABLE } from "../../../testkit/worker-bundle-file.js";
import { type WorkerdGateway, startWorkerdGateway } from "../../../testkit/workerd-gateway.js";
// @ts-expect-error: a plain ES module shared with `npm run build:worker`
import { WORKER_ENTRY, workerBuildOptions } from "../../../scripts/worker-bundle.mjs";

// The Workers bundle carries the /docs assets gzipped (scripts/worker-bundle.mjs) and decompresses each on
// first use (src/platform/workers/bundled-docs-assets.ts): what it serves must be the bytes Node serves from
// node_modules (src/platform/node/docs-assets.ts), and the bundle must not carry the text itself.

const require = createRequire(import.meta.url);
const packaged = (name: string) => readFileSync(require.resolve(`swagger-ui-dist/${name}`), "utf8");

/** The Workers bundle this run tests (testkit/build-once.ts), else built now as `npm run build:worker` builds it. */
async function workerBundle(): Promise<string> {
  const built = process.env[WORKER_BUNDLE_VARIABLE];
  if (built) return readFileSync(built, "utf8");
  const result = await build({ ...workerBuildOptions, entryPoints: [WORKER_ENTRY], write: false });
  return result.outputFiles![0]!.text;
}

/** Headers that differ between any two answers (the request's id, the clock). */
const PER_REQUEST = new Set(["x-request-id", "date"]);
const lasting = (headers: Headers) => [...headers].filter(([name]) => !PER_REQUEST.has(name));

describe("the /docs assets of the Workers build", () => {
  let gateway: WorkerdGateway;
  beforeAll(async () => {
    gateway = await startWorkerdGateway({}, { indexObject: false, onLog: () => {} });
  });
  afterAll(async () => {
    await gateway?.close();
  });

  it.each(DOCS_ASSET_NAMES)(
    "%s: the bytes and content type Node serves, on first requests at once and once kept",
    async (name) => {
      const expected = await nodeDocsAssets()(name);
      const url = `${gateway.url}/docs/${name}`;
      // Two first requests at once: each decompresses on its own (a request may not wait on another's stream).
      const first = await Promise.all([fetch(url), fetch(url)]);
      const later = await fetch(url);
      const bodies = await Promise.all(
        [...first, later].map(async (answer) => Buffer.from(await answer.arrayBuffer())),
      );
      for (const [i, answer] of [...first, later].entries()) {
        expect(answer.status).toBe(200);
        expect(answer.headers.get("content-type")).toBe(expected!.contentType);
        expect(bodies[i]!.equals(Buffer.from(expected!.body, "utf8")), `answer ${i} differs from Node's`).toBe(true);
        expect(lasting(answer.headers)).toEqual(lasting(later.headers));
      }
    },
  );
});

describe("bundledDocsAssets", () => {
  it("decompresses one asset for at most MAX_DECOMPRESSING first requests at once, refuses more, then serves it kept", async () => {
    const assets = bundledDocsAssets({
      "swagger-ui-bundle.js": gzipSync(packaged("swagger-ui-bundle.js")).toString("base64"),
      "swagger-ui.css": gzipSync(packaged("swagger-ui.css")).toString("base64"),
    });
    const expected = await nodeDocsAssets()("swagger-ui-bundle.js");
    const outcomes = await Promise.allSettled(
      Array.from({ length: MAX_DECOMPRESSING + 2 }, () => assets("swagger-ui-bundle.js")),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      ...Array.from({ length: MAX_DECOMPRESSING }, () => "fulfilled"),
      "rejected",
      "rejected",
    ]);
    for (const outcome of outcomes) {
      if (outcome.status === "fulfilled") expect(outcome.value).toEqual(expected);
      else expect(outcome.reason).toBeInstanceOf(OverloadedError);
    }
    // Another asset is not held back by this one's, and once kept an asset is served to any number at once.
    expect(await assets("swagger-ui.css")).toEqual(await nodeDocsAssets()("swagger-ui.css"));
    const kept = await Promise.all(Array.from({ length: 8 }, () => assets("swagger-ui-bundle.js")));
    for (const asset of kept) expect(asset).toEqual(expected);
  });

  it("decodes base64 with atob where the runtime has no Uint8Array.fromBase64 (workerd has it)", async () => {
    const gzipped = (name: string) =>
      gzipSync(readFileSync(require.resolve(`swagger-ui-dist/${name}`))).toString("base64");
    const assets = bundledDocsAssets({
      "swagger-ui-bundle.js": gzipped("swagger-ui-bundle.js"),
      "swagger-ui.css": gzipped("swagger-ui.css"),
    });
    const native = Object.getOwnPropertyDescriptor(Uint8Array, "fromBase64");
    if (native) delete (Uint8Array as { fromBase64?: unknown }).fromBase64;
    try {
      for (const name of DOCS_ASSET_NAMES) expect(await assets(name)).toEqual(await nodeDocsAssets()(name));
    } finally {
      if (native) Object.defineProperty(Uint8Array, "fromBase64", native);
    }
  });
});

describe("the Workers bundle", () => {
  it("holds no uncompressed Swagger UI text (the /docs assets travel gzipped)", async () => {
    const bundle = await workerBundle();
    for (const name of DOCS_ASSET_NAMES) {
      // A long run of characters no bundler escapes inside a string literal: found in the bundle if the text is.
      const sample = /[\w .,;:(){}[\]=+*&|!?%#-]{120,}/.exec(packaged(name))?.[0];
      expect(sample, `${name}: a long plain run of characters`).toBeDefined();
      expect(bundle.includes(sample!), `${name}: ${sample!.slice(0, 60)}… is in the bundle`).toBe(false);
    }
  });
});
