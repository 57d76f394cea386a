import type { Address } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { CompactRecordStore, RECORD_BYTES } from "../../../src/service/compact-records.js";
import type { TokenizedRecordStore } from "../../../src/service/record-store.js";
import { type SqlStorage, type SqlValue, SqlRecordStore } from "../../../src/platform/workers/sql-record-store.js";
import { bytesToAddress } from "../../../src/sns/bytes.js";
import { createRng, seedFromEnv } from "../../../testkit/rng.js";

// The Durable Object's SQL store against the compact rows of Node, over
// generated builds and changes: the index answers the same on both
// platforms. The object's `ctx.storage.sql` is SQLite; here node:sqlite
// stands in for it through the same three calls (exec, toArray,
// transactionSync). Under workerd the store runs in test/http/tokenized-index.test.ts.

// node:sqlite announces itself as experimental on some Node lines: that notice says nothing about this project.
const emitWarning = process.emitWarning;
process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
  if (!String(warning).includes("SQLite")) (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
}) as typeof process.emitWarning;
/** The part of node:sqlite used here (its types come with @types/node 22; this project's are 20's). */
interface NodeSqlite {
  DatabaseSync: new (path: string) => {
    prepare(query: string): { all(...values: never[]): unknown[]; run(...values: never[]): unknown };
    exec(query: string): void;
  };
}
const SQLITE_MODULE: string = "node:sqlite";
const { DatabaseSync } = (await import(SQLITE_MODULE)) as NodeSqlite;
process.emitWarning = emitWarning;

/** `ctx.storage.sql` and `transactionSync` over node:sqlite (blobs bound as ArrayBuffer there, as views here). */
function sqlite(): { sql: SqlStorage; transaction: <T>(work: () => T) => T } {
  const db = new DatabaseSync(":memory:");
  const sql: SqlStorage = {
    exec(query, ...bindings) {
      const values = bindings.map((value) => (value instanceof ArrayBuffer ? new Uint8Array(value) : value)) as never[];
      const statement = db.prepare(query);
      if (/^\s*SELECT/i.test(query)) {
        const rows = statement.all(...values) as Record<string, SqlValue>[];
        return { toArray: () => rows };
      }
      statement.run(...values);
      return { toArray: () => [] };
    },
  };
  const transaction = <T>(work: () => T): T => {
    db.exec("BEGIN");
    try {
      const result = work();
      db.exec("COMMIT");
      return result;
    } catch (error) {
      db.exec("ROLLBACK");
      throw error;
    }
  };
  return { sql, transaction };
}

const SEED = seedFromEnv("DIFF_SEED");

describe("the Durable Object's SQL record store answers as the compact rows", () => {
  it("over 200 generated builds with duplicate mints, then activations and deactivations", () => {
    const rng = createRng(SEED);
    console.log(`sql record store: seed ${SEED} × 200 (reproduce with DIFF_SEED=${SEED})`);
    for (let round = 0; round < 200; round++) {
      // A small universe of keys, so mints repeat across records and changes hit built rows.
      const universe = Array.from({ length: rng.int(2, 40) }, () => rng.bytes(32));
      const key = () => rng.pick(universe);
      const { sql, transaction } = sqlite();
      const stores: TokenizedRecordStore[] = [new CompactRecordStore(), new SqlRecordStore(sql, transaction)];
      const rows = new Uint8Array(rng.int(0, 60) * RECORD_BYTES);
      for (let at = 0; at < rows.length; at += RECORD_BYTES) {
        rows.set(key(), at);
        rows.set(key(), at + 32);
      }
      const batches = rng.int(1, 4);
      for (const store of stores) {
        const build = store.build(1_000);
        const size = Math.ceil(rows.length / RECORD_BYTES / batches) * RECORD_BYTES;
        for (let at = 0; at < rows.length; at += size) build.add(rows.subarray(at, at + size));
        build.finish();
      }
      const mints = universe.map((bytes) => bytesToAddress(bytes) as Address);
      const expectSame = (step: string) => {
        for (const mint of mints) {
          const [compact, sqlStore] = stores.map((store) => [store.lookup(mint), store.isAmbiguous(mint)]);
          expect(sqlStore, `seed ${SEED} round ${round} ${step} mint ${mint}`).toEqual(compact);
        }
      };
      expectSame("after the build");
      for (let change = 0; change < 30; change++) {
        const mint = rng.pick(mints);
        // The index rebuilds rather than change an ambiguous mint: neither store is asked to.
        if (stores[0]!.isAmbiguous(mint)) continue;
        if (rng.bool()) {
          const name = bytesToAddress(key()) as Address;
          for (const store of stores) store.activate(mint, name);
        } else {
          const known = stores[0]!.lookup(mint);
          if (known !== undefined) for (const store of stores) store.deactivate(mint);
        }
        expectSame(`after change ${change}`);
      }
    }
  });

  it("drops what a build given up still adds once the rows were cleared and a new build began", () => {
    // The index gives a build up when one of its partition scans fails, clears the rows and builds again
    // later, while the other scans of that round may still answer: their rows must not reach the new build.
    const mint = new Uint8Array(32).fill(7);
    const name = new Uint8Array(32).fill(9);
    const rows = new Uint8Array(RECORD_BYTES);
    rows.set(mint, 0);
    rows.set(name, 32);
    const { sql, transaction } = sqlite();
    const stores: TokenizedRecordStore[] = [new CompactRecordStore(), new SqlRecordStore(sql, transaction)];
    for (const store of stores) {
      const givenUp = store.build(1_000);
      store.clear();
      const current = store.build(1_000);
      current.add(rows);
      givenUp.add(rows);
      current.finish();
      // Nor does its end replace what the current build holds.
      givenUp.finish();
      expect(store.isAmbiguous(bytesToAddress(mint) as Address)).toBe(false);
      expect(store.lookup(bytesToAddress(mint) as Address)).toBe(bytesToAddress(name));
      expect(store.records).toBe(1);
    }
  });

  it("count the same active records through changes to built rows", () => {
    const { sql, transaction } = sqlite();
    const stores: TokenizedRecordStore[] = [new CompactRecordStore(), new SqlRecordStore(sql, transaction)];
    const key = (byte: number) => bytesToAddress(new Uint8Array(32).fill(byte)) as Address;
    const rows = new Uint8Array(2 * RECORD_BYTES);
    rows.set(new Uint8Array(32).fill(1), 0);
    rows.set(new Uint8Array(32).fill(11), 32);
    rows.set(new Uint8Array(32).fill(2), RECORD_BYTES);
    rows.set(new Uint8Array(32).fill(12), RECORD_BYTES + 32);
    for (const store of stores) {
      const build = store.build(10);
      build.add(rows);
      build.finish();
    }
    const counts = () => stores.map((store) => store.records);
    expect(counts()).toEqual([2, 2]);
    // A built record active again (the same name), then gone, then a new mint.
    for (const store of stores) store.activate(key(1), key(11));
    expect(counts()).toEqual([2, 2]);
    for (const store of stores) store.deactivate(key(1));
    expect(counts()).toEqual([1, 1]);
    for (const store of stores) store.activate(key(3), key(13));
    expect(counts()).toEqual([2, 2]);
    for (const store of stores) store.activate(key(1), key(11));
    expect(counts()).toEqual([3, 3]);
  });

  it("refuses a build past its bound before writing it, and keeps progress beside the rows", () => {
    const { sql, transaction } = sqlite();
    const store = new SqlRecordStore(sql, transaction);
    const build = store.build(2);
    expect(() => build.add(new Uint8Array(3 * RECORD_BYTES))).toThrow(/more than 2 tokenizer records/);
    expect(store.records).toBe(0);
    expect(store.loadProgress()).toBeUndefined();
    const progress = { ready: true, cursor: "sig", syncedSlot: 120, floorSlot: 120, partitioned: true };
    store.saveProgress(progress);
    // A store opened again on the same storage (an object woken after eviction) finds rows and progress.
    store.activate(bytesToAddress(new Uint8Array(32).fill(1)) as Address, bytesToAddress(new Uint8Array(32).fill(2)) as Address);
    const again = new SqlRecordStore(sql, transaction);
    expect(again.loadProgress()).toEqual(progress);
    expect(again.records).toBe(1);
    expect(again.lookup(bytesToAddress(new Uint8Array(32).fill(1)) as Address)).toBe(bytesToAddress(new Uint8Array(32).fill(2)));
  });
});
