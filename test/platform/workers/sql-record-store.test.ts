import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedFromEnv } from "../../../testkit/rng.js";
import { type RecordStoreChecks, startRecordStoreChecks } from "../../../testkit/workerd-record-store.js";

// The Durable Object's SQL record store where it runs: inside workerd, on a
// Durable Object's SQLite storage (testkit/record-store-worker.ts), compared
// with the compact rows of Node over generated builds and changes, so the
// index answers the same on both platforms.

const SEED = seedFromEnv("DIFF_SEED");
const ROUNDS = 200;

describe("the Durable Object's SQL record store, on a Durable Object's SQLite storage, answers as the compact rows", () => {
  let checks: RecordStoreChecks;
  beforeAll(async () => {
    checks = await startRecordStoreChecks();
  });
  afterAll(() => checks.close());

  it(`over ${ROUNDS} generated builds with duplicate mints, then activations and deactivations`, async () => {
    console.log(`sql record store: seed ${SEED} × ${ROUNDS} (reproduce with DIFF_SEED=${SEED})`);
    let compared = 0;
    for (let round = 0; round < ROUNDS; round++) {
      // A fresh object per round: an empty storage.
      const result = await checks.run(`generated-${round}`, "generated", SEED, round);
      expect(result.failure, `seed ${SEED}`).toBeUndefined();
      compared += result.compared!;
    }
    // Every round compares each mint of its universe (2 to 40) at least after its build.
    expect(compared).toBeGreaterThanOrEqual(ROUNDS * 2);
  });

  for (const check of ["given-up-build", "counts-through-changes"] as const) {
    it(check.replaceAll("-", " "), async () => {
      const result = await checks.run(check, check);
      expect(result).toEqual({ compared: expect.any(Number) });
      expect(result.compared).toBeGreaterThan(0);
    });
  }

  it("refuses a build past its bound before writing it, and keeps progress beside the rows in the same object", async () => {
    expect(await checks.run("same-object", "bound-then-save")).toEqual({ compared: 4 });
    expect(await checks.run("same-object", "reopened")).toEqual({ compared: 3 });
  });
});

describe("the SQL record store after workerd restarts on the same persisted storage", () => {
  const folder = mkdtempSync(join(tmpdir(), "sql-store-"));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("finds the rows and progress an earlier process wrote (an object woken after eviction)", async () => {
    const first = await startRecordStoreChecks(folder);
    try {
      expect(await first.run("kept", "bound-then-save")).toEqual({ compared: 4 });
    } finally {
      await first.close();
    }
    const second = await startRecordStoreChecks(folder);
    try {
      expect(await second.run("kept", "reopened")).toEqual({ compared: 3 });
      // Another object's storage is its own: nothing was saved there.
      expect((await second.run("other", "reopened")).failure).toMatch(/progress after reopening/);
    } finally {
      await second.close();
    }
  });
});
