import { defineConfig } from "vitest/config";

/** Test files that talk HTTP to a gateway started by testkit/stack.ts: run on Node and again on workerd. */
const INTEGRATION = [
  "test/http/resolve.test.ts",
  "test/http/resolve-bulk.test.ts",
  "test/http/context-slot.test.ts",
  "test/http/readiness.test.ts",
  "test/http/records.test.ts",
  "test/http/wallet-routes.test.ts",
  "test/http/override-controls.test.ts",
  "test/http/load-shaping.test.ts",
  "test/http/adapter.test.ts",
  "test/http/tokenized-index.test.ts",
  "test/http/failover.test.ts",
  "test/http/lying-slot.test.ts",
  "test/http/openapi.test.ts",
  "test/http/write-routes.test.ts",
  "test/differential/records-http.test.ts",
  "test/differential/resolve.test.ts",
  "test/differential/resolve-bulk.test.ts",
  "test/http/srs-resolve.test.ts",
  "test/differential/srs-resolve.test.ts",
  "test/http/srs-demo.test.ts",
];

/** Test files whose statements are about a whole gateway process, measured as `npm start` runs it. */
const PROCESS_STATEMENTS = "test/process/**/*.test.ts";

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // The JSON report lets CI print a plain "N passed, N failed" summary.
    reporters: ["default", "json"],
    outputFile: { json: "test-results/vitest.json" },
    // The SDK oracle's bigint-buffer (under @solana/buffer-layout-utils) runs its pure-JS code, as its install
    // script (a native build) is denied in package.json's allowScripts; its notice says nothing about this project.
    onConsoleLog: (log) => !log.startsWith("bigint: Failed to load bindings"),
    projects: [
      { extends: true, test: { name: "node", include: ["test/**/*.test.ts"], exclude: [PROCESS_STATEMENTS] } },
      // The same files against the Workers build under workerd (Miniflare), a second target.
      { extends: true, test: { name: "workerd", include: INTEGRATION, env: { GATEWAY_TARGET: "workerd" } } },
      // Statements about a whole process (peak memory, time to answer under attack) hold only on a machine
      // not also running the rest of the suite: they run after the other projects, one file at a time.
      {
        extends: true,
        test: { name: "process", include: [PROCESS_STATEMENTS], sequence: { groupOrder: 1 }, fileParallelism: false },
      },
    ],
  },
});
