import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONFIG_VARIABLES, loadConfig } from "../../../src/config.js";
import { INDEX_OBJECT_BINDING } from "../../../src/platform/workers/bindings.js";
import { holdPort, startEntry } from "../../../testkit/entry-process.js";

// wrangler.toml deploys what the Worker reads and what the workerd tests
// declare (testkit/workerd-gateway.ts): the index object's binding, its
// class exported by the entry, and a SQLite migration for that class.

const ROOT = new URL("../../../", import.meta.url);
const wrangler = readFileSync(new URL("wrangler.toml", ROOT), "utf8");
const entry = readFileSync(new URL("src/platform/workers/main.ts", ROOT), "utf8");
const performancePage = readFileSync(new URL("docs/performance.md", ROOT), "utf8");

/** The key = "value" pairs of the `[[header]]` tables in the file, uncommented. */
function tables(header: string): Record<string, string>[] {
  const found: Record<string, string>[] = [];
  let current: Record<string, string> | undefined;
  for (const raw of wrangler.split("\n")) {
    const line = raw.replace(/#.*$/, "").trim();
    if (line.startsWith("[")) {
      current = line === `[[${header}]]` ? {} : undefined;
      if (current) found.push(current);
    } else if (current && line.includes("=")) {
      const [key, value] = line.split("=", 2).map((part) => part.trim());
      current[key!] = value!;
    }
  }
  return found;
}

/** The lines `NAME = "value"` of `[vars]`, with whether each is commented out. */
function vars(): { name: string; value: string; commented: boolean }[] {
  const start = wrangler.indexOf("\n[vars]\n");
  const end = wrangler.indexOf("\n[", start + 1);
  return [...wrangler.slice(start, end).matchAll(/^(# )?([A-Z][A-Z0-9_]*) = "([^"]*)"/gm)].map((match) => ({
    name: match[2]!,
    value: match[3]!,
    commented: match[1] !== undefined,
  }));
}

describe("wrangler.toml", () => {
  it("binds the tokenized index object under the name the Worker reads, with its SQLite migration", () => {
    const [binding] = tables("durable_objects.bindings");
    expect(binding).toEqual({ name: `"${INDEX_OBJECT_BINDING}"`, class_name: '"TokenizedIndexObject"' });
    expect(entry).toMatch(/export \{ TokenizedIndexObject \} from/);
    const [migration] = tables("migrations");
    expect(migration?.new_sqlite_classes).toBe('["TokenizedIndexObject"]');
  });

  // docs/configuration.md says Workers take the same defaults as Node: a var set here is that default, written out.
  it("[vars] names only settings src/config.ts reads, each set to its default", () => {
    const listed = vars();
    expect(listed.length).toBeGreaterThan(10);
    const defaults = loadConfig({});
    for (const { name, value, commented } of listed) {
      expect(CONFIG_VARIABLES, `wrangler.toml [vars]: ${name} is not a setting`).toContain(name);
      // RPC_URL has no default: its line shows what a value looks like.
      if (name === "RPC_URL") continue;
      expect(
        loadConfig({ [name]: value }),
        `wrangler.toml [vars]: ${name} = "${value}"${commented ? " (commented out)" : ""} is not the default of src/config.ts`,
      ).toEqual(defaults);
    }
  });
});

/**
 * wrangler run offline: no telemetry, no update check (it comes with the banner), no `Request.cf`
 * fetched from Cloudflare, no account credentials, and its logs and settings in `home` rather than the
 * user's.
 */
function wranglerEnv(home: string): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith("CLOUDFLARE_")) env[name] = value;
  return {
    ...env,
    CI: "true",
    WRANGLER_SEND_METRICS: "false",
    WRANGLER_HIDE_BANNER: "true",
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
    XDG_CONFIG_HOME: home,
  };
}

/** docs/performance.md's figure for the Workers bundle, in KiB: `dist-worker/worker.js` N KiB minified, M KiB gzip. */
const STATED = /`dist-worker\/worker\.js`\s+([\d,]+) KiB minified, ([\d,]+) KiB gzip/;
/** How far the measured size may be from docs/performance.md's before that page must be updated. */
const TOLERANCE = 0.05;

describe("wrangler (the Workers toolchain, a pinned dev dependency)", () => {
  let home: string;
  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), "sns-gateway-wrangler-"));
  });
  // The Workers runtime may still be writing its state there after its parent exited: removal is retried
  // for up to 9 s, and a directory still being written after that is left in the system's temp directory.
  // Node waits `retryDelay` more before each retry (200, 400, … 1,800 ms): 50 retries waited 255 s, past
  // the hook's timeout, once the runtime kept writing.
  afterAll(() => {
    try {
      rmSync(home, { recursive: true, force: true, maxRetries: 9, retryDelay: 200 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOTEMPTY") throw error;
    }
  });

  it(
    "`npm run deploy -- --dry-run` builds the bundle offline, the size docs/performance.md states within 5%",
    { timeout: 120_000 },
    async () => {
      const run = startEntry(
        ["npm", "run", "--silent", "deploy", "--", "--dry-run", "--outdir", join(home, "out")],
        wranglerEnv(home),
        false,
      );
      const output = () => run.stdout() + run.stderr();
      expect(await run.exited, output()).toBe(0);
      expect(output()).toContain("Running: npm run build:worker");
      const measured = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(output());
      expect(measured, output()).not.toBeNull();
      const [kib, gzipKib] = [Number(measured![1]), Number(measured![2])];
      console.log(`wrangler deploy --dry-run: ${kib} KiB, gzip ${gzipKib} KiB`);
      const stated = STATED.exec(performancePage);
      expect(
        stated,
        "docs/performance.md: the Workers bundle size, as `dist-worker/worker.js` N KiB minified, M KiB gzip",
      ).not.toBeNull();
      const [statedKib, statedGzip] = [Number(stated![1]!.replace(/,/g, "")), Number(stated![2]!.replace(/,/g, ""))];
      const message = `docs/performance.md states ${statedKib} KiB, ${statedGzip} KiB gzip; wrangler measures ${kib} KiB, ${gzipKib} KiB gzip`;
      expect(Math.abs(statedKib - kib) / kib, message).toBeLessThanOrEqual(TOLERANCE);
      expect(Math.abs(statedGzip - gzipKib) / gzipKib, message).toBeLessThanOrEqual(TOLERANCE);
    },
  );

  it("`npm run dev:worker` serves the Worker on loopback, offline", { timeout: 120_000 }, async () => {
    const free = await holdPort();
    await free.release();
    const { port } = free;
    const run = startEntry(
      ["npm", "run", "--silent", "dev:worker", "--", "--port", String(port), "--persist-to", join(home, "state")],
      wranglerEnv(home),
      false,
    );
    const output = () => run.stdout() + run.stderr();
    try {
      const deadline = Date.now() + 90_000;
      let status = 0;
      while (status !== 200 && Date.now() < deadline && run.child.exitCode === null) {
        status = await fetch(`http://127.0.0.1:${port}/health`).then(
          (answer) => answer.status,
          () => 0,
        );
        if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(status, output()).toBe(200);
      expect(output()).not.toMatch(/workers\.cloudflare\.com|Unable to fetch/);
    } finally {
      await run.stop();
    }
  });
});
