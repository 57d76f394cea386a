import { mkdtempSync, rmSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { Miniflare, type MiniflareOptions } from "miniflare";
import type { Env } from "../src/config.js";
import { INDEX_OBJECT_BINDING } from "../src/platform/workers/bindings.js";
import { WORKER_BUNDLE_VARIABLE } from "./worker-bundle-file.js";
// @ts-expect-error: a plain ES module shared with `npm run build:worker`
import { WORKER_ENTRY, workerBuildOptions } from "../scripts/worker-bundle.mjs";

let bundle: Promise<string> | undefined;

/**
 * The Workers bundle from the current sources (as `npm run build:worker` builds it): the one
 * testkit/build-once.ts built for this `vitest run`, else built once per process.
 */
function workerScript(): Promise<string> {
  const built = process.env[WORKER_BUNDLE_VARIABLE];
  if (built) bundle ??= readFile(built, "utf8");
  bundle ??= build({ ...workerBuildOptions, entryPoints: [WORKER_ENTRY], write: false }).then(
    (result) => result.outputFiles![0]!.text,
  );
  return bundle;
}

export interface WorkerdOptions {
  /**
   * Bind the tokenized index's Durable Object as wrangler.toml does (SQLite
   * storage, in memory for the test); false: the Worker without it (`/domains` scans).
   */
  readonly indexObject?: boolean;
  /** Keep Durable Object storage in this folder, so a restarted gateway finds it again. */
  readonly persistTo?: string;
  /** Receives each line the Worker logs (its `console.log` lines); absent: they go to this process's output. */
  readonly onLog?: (line: string) => void;
  /** Another bundled Worker to run instead of the gateway (a benchmark's yardstick, bench/constant-worker.ts). */
  readonly script?: string;
}

export interface WorkerdGateway {
  readonly url: string;
  /** The headers of the answer the Worker's edge cache (`caches.default`) keeps for `url`, if any. */
  edgeKept(url: string): Promise<Record<string, string> | undefined>;
  close(): Promise<void>;
}

/**
 * The Workers build under workerd (Miniflare), listening on an ephemeral
 * loopback port, with `env` as its bindings. `cf: false`: nothing is fetched
 * from Cloudflare; the only outbound traffic is to the RPC URLs a test gives.
 */
export async function startWorkerdGateway(env: Env, options: WorkerdOptions = {}): Promise<WorkerdGateway> {
  const bindings: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined) bindings[name] = value;
  const miniflare = inOwnTempRoot({
    // The bundle as its one ES module: given as `script` with `modules: true`, Miniflare parses all of it
    // (3.5 MB) at every start to find imports a bundle does not have, about a second of this process's CPU.
    modules: [{ type: "ESModule", path: "worker.mjs", contents: options.script ?? (await workerScript()) }],
    compatibilityDate: "2025-09-01",
    cf: false,
    host: "127.0.0.1",
    port: 0,
    bindings,
    ...(options.indexObject !== false && {
      durableObjects: { [INDEX_OBJECT_BINDING]: { className: "TokenizedIndexObject", useSQLite: true } },
    }),
    ...(options.persistTo && { durableObjectsPersist: options.persistTo }),
    ...(options.onLog && {
      handleStructuredLogs: ({ message }: { message: string }) => {
        options.onLog!(message);
      },
    }),
  });
  const url = await miniflare.instance.ready;
  return {
    url: url.origin,
    async edgeKept(keptUrl) {
      // Miniflare types its CacheStorage without Workers' `default` (present at run time, as in a Worker).
      const caches = (await miniflare.instance.getCaches()) as unknown as {
        readonly default: {
          match(
            url: string,
          ): Promise<{ headers: Iterable<[string, string]>; arrayBuffer(): Promise<ArrayBuffer> } | undefined>;
        };
      };
      const kept = await caches.default.match(keptUrl);
      if (!kept) return undefined;
      await kept.arrayBuffer();
      return Object.fromEntries(kept.headers);
    },
    async close() {
      await miniflare.instance.dispose();
      await rm(miniflare.root, { recursive: true, force: true });
    },
  };
}

/**
 * A Miniflare whose `miniflare-*` working folder lies in a folder of its own,
 * removed by the caller after `dispose()`. Miniflare names that folder under
 * `os.tmpdir()` when it is constructed, and `dispose()` only starts removing
 * it: a test process that ends first leaves it behind. `os.tmpdir()` reads
 * TMPDIR at each call (POSIX), and the constructor runs without yielding,
 * so the variable is set for exactly that call.
 */
export function inOwnTempRoot(options: MiniflareOptions): { readonly instance: Miniflare; readonly root: string } {
  const root = mkdtempSync(join(tmpdir(), "sns-gateway-workerd-"));
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = root;
  try {
    return { instance: new Miniflare(options), root };
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
}
