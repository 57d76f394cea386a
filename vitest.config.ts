import { defineConfig } from "vitest/config";

/**
 * Test files that talk HTTP to a gateway started by testkit/stack.ts: run on Node and again on workerd. A file
 * elsewhere that starts that gateway registers its groups with describeOnNode (test/test-layout.test.ts).
 */
const BOTH_TARGETS = "test/gateway/**/*.test.ts";

/** Pure protocol (src/sns/, no I/O): the same answers on every Node line. */
const PURE_PROTOCOL = "test/sns/**/*.test.ts";

/**
 * Test files whose statements are about a whole process: a gateway measured as `npm start` runs it, or V8's
 * collector under a collection's churn (collection-churn.test.ts).
 */
const PROCESS_STATEMENTS = "test/process/**/*.test.ts";

/**
 * The projects node, workerd and sns run their files one after another in each worker process, modules
 * loaded once (a file imported the gateway's modules anew in a fresh process before: about a second each,
 * a fifth of the suite). What the modules keep between files is pure: the memos of src/sns/memos.ts
 * (derived keys and curve and signature verdicts: the same answers, sooner), caches of well-formed keys and
 * of answer texts; every gateway, registry of metrics, localnet and tracer a file starts is its own and
 * closed by it, and a file that fakes timers or sets the environment puts them back. A worker runs the
 * files of one project only, so GATEWAY_TARGET is the project's.
 */
const SHARED_MODULES = { isolate: false } as const;

export default defineConfig({
  test: {
    // Two files at once on two cores: a file's set-up (ledgers of a thousand states, an SDK oracle, a workerd)
    // may wait for the other's CPU, so hooks get more than a test's 30 s.
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
    // One test file per core (vitest's default on 2 cores is a single file at a time): most files spend their
    // time waiting on a localnet, a gateway or a timer, so two at once share the machine without contending.
    maxWorkers: 2,
    // `src/` compiled and the Workers bundle built once per run, before any file (not once per file).
    globalSetup: ["testkit/build-once.ts"],
    // The JSON report lets CI print a plain "N passed, N failed" summary.
    reporters: ["default", "json"],
    outputFile: { json: "test-results/vitest.json" },
    // The SDK oracle's bigint-buffer (under @solana/buffer-layout-utils) runs its pure-JS code, as its install
    // script (a native build) is denied in package.json's allowScripts; its notice says nothing about this project.
    onConsoleLog: (log) => !log.startsWith("bigint: Failed to load bindings"),
    projects: [
      {
        extends: true,
        test: {
          name: "node",
          include: ["test/**/*.test.ts"],
          exclude: [PROCESS_STATEMENTS, PURE_PROTOCOL],
          ...SHARED_MODULES,
        },
      },
      // The files of test/gateway/ against the Workers build under workerd (Miniflare), a second target.
      {
        extends: true,
        test: { name: "workerd", include: [BOTH_TARGETS], env: { GATEWAY_TARGET: "workerd" }, ...SHARED_MODULES },
      },
      // A project of its own so that .ci/run runs it under one Node line only (.ci/run says why).
      { extends: true, test: { name: "sns", include: [PURE_PROTOCOL], ...SHARED_MODULES } },
      // Statements about a whole process (peak memory, time to answer under attack) hold only on a machine
      // not also running the rest of the suite: they run after the other projects, one file at a time.
      {
        extends: true,
        test: {
          name: "process",
          include: [PROCESS_STATEMENTS],
          sequence: { groupOrder: 1 },
          fileParallelism: false,
          maxWorkers: 1,
        },
      },
    ],
  },
});
