import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

// In test/process/ (every Node line of .ci/run): a statement about V8's collector, which may change from one
// line to the next. docs/performance.md, "Collections whose entries come and go".
const ROOT = resolve(import.meta.dirname, "../..");

type Kind = "map" | "renewed-map" | "set" | "renewed-set";

/** What the scavenges of a churn child promoted, per scavenge, in KB (`--trace-gc-nvp`). */
function promotedPerScavenge(kind: Kind): number {
  const child = spawnSync(
    process.execPath,
    ["--max-semi-space-size=8", "--trace-gc-nvp", "--import", "tsx", "testkit/collection-churn.ts", kind],
    { cwd: ROOT, encoding: "utf8", timeout: 60_000, maxBuffer: 64 << 20 },
  );
  expect(child.error, String(child.error)).toBeUndefined();
  expect(child.signal).toBeNull();
  expect(child.status, child.stderr).toBe(0);
  const promoted = [...child.stdout.matchAll(/gc=s .*?\bpromoted=(\d+)/g)].map((match) => Number(match[1]));
  expect(promoted.length).toBeGreaterThan(20);
  // The first scavenges see the module graph being loaded: what churn promotes is measured after them.
  const steady = promoted.slice(10);
  return steady.reduce((sum, bytes) => sum + bytes, 0) / steady.length / 1024;
}

describe("a long-lived collection whose entries come and go", () => {
  it.each([
    ["map", "renewed-map"],
    ["set", "renewed-set"],
  ] as const)(
    "%s promotes what went through it; %s a small fraction of that",
    (plainKind, renewedKind) => {
      const plain = promotedPerScavenge(plainKind);
      const renewed = promotedPerScavenge(renewedKind);
      console.log(`KB promoted per scavenge: ${plainKind} ${plain.toFixed(0)}, ${renewedKind} ${renewed.toFixed(0)}`);
      // Megabytes a scavenge: if this fails, this Node's V8 no longer promotes through obsolete tables, and
      // src/sns/renewed-map.ts may no longer be needed.
      expect(plain, "a plain collection's promotion").toBeGreaterThan(1000);
      expect(renewed).toBeLessThan(plain / 10);
    },
    120_000,
  );
});
