import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // The JSON report lets CI print a plain "N passed, N failed" summary.
    reporters: ["default", "json"],
    outputFile: { json: "test-results/vitest.json" },
  },
});
