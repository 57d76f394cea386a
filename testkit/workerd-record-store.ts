import { build } from "esbuild";
import { rm } from "node:fs/promises";
// @ts-expect-error: a plain ES module shared with `npm run build:worker`
import { workerBuildOptions } from "../scripts/worker-bundle.mjs";
import type { RecordStoreCheck } from "./record-store-checks.js";
import { inOwnTempRoot } from "./workerd-gateway.js";

let bundle: Promise<string> | undefined;

/** testkit/record-store-worker.ts bundled as the Workers build is (scripts/worker-bundle.mjs), once per process. */
function checksScript(): Promise<string> {
  bundle ??= build({ ...workerBuildOptions, entryPoints: ["testkit/record-store-worker.ts"], write: false }).then(
    (result) => result.outputFiles![0]!.text,
  );
  return bundle;
}

export interface RecordStoreChecks {
  /** Runs `check` in the object named `object`: its number of comparisons, or the first that failed. */
  run(
    object: string,
    check: RecordStoreCheck,
    seed?: number,
    round?: number,
  ): Promise<{ compared?: number; failure?: string }>;
  close(): Promise<void>;
}

/**
 * The record-store checks' Worker under workerd, its Durable Object on
 * SQLite storage as wrangler.toml binds the index object: in memory, or kept
 * in `persistTo` so a second start finds what the first wrote.
 */
export async function startRecordStoreChecks(persistTo?: string): Promise<RecordStoreChecks> {
  const { instance: miniflare, root } = inOwnTempRoot({
    script: await checksScript(),
    modules: true,
    compatibilityDate: "2025-09-01",
    cf: false,
    durableObjects: { STORE_CHECKS: { className: "StoreChecks", useSQLite: true } },
    ...(persistTo && { durableObjectsPersist: persistTo }),
  });
  await miniflare.ready;
  return {
    async run(object, check, seed = 0, round = 0) {
      const response = await miniflare.dispatchFetch(`http://checks/${object}/${check}?seed=${seed}&round=${round}`);
      if (response.status !== 200) throw new Error(`${check}: HTTP ${response.status} ${await response.text()}`);
      return (await response.json()) as { compared?: number; failure?: string };
    },
    async close() {
      await miniflare.dispose();
      await rm(root, { recursive: true, force: true });
    },
  };
}
