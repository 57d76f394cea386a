import type { Address } from "@solana/kit";
import { CompactRecordStore, RECORD_BYTES } from "../src/service/compact-records.js";
import type { TokenizedRecordStore } from "../src/service/record-store.js";
import { type SqlStorage, SqlRecordStore, type TransactionSync } from "../src/platform/workers/sql-record-store.js";
import { bytesToAddress } from "../src/sns/bytes.js";
import { createRng } from "./rng.js";

/*
 * The checks of the Durable Object's SQL record store against the compact
 * rows of Node. They run inside workerd, in a Durable Object with SQLite
 * storage (testkit/workerd-record-store.ts), so the store meets the storage
 * it runs on; each check starts on an empty storage and returns how many
 * comparisons it made, throwing at the first that fails.
 */

/** The storage a check runs on: `ctx.storage.sql` and `ctx.storage.transactionSync` of one object. */
export interface CheckStorage {
  readonly sql: SqlStorage;
  readonly transaction: TransactionSync;
}

export class CheckFailure extends Error {}

function same(actual: unknown, expected: unknown, what: string): void {
  const [a, e] = [JSON.stringify(actual), JSON.stringify(expected)];
  if (a !== e) throw new CheckFailure(`${what}: ${a}, expected ${e}`);
}

const keyOf = (byte: number) => bytesToAddress(new Uint8Array(32).fill(byte)) as Address;
const sqlStore = (storage: CheckStorage) => new SqlRecordStore(storage.sql, storage.transaction);

/**
 * One generated round: a build of rows whose mints repeat (a small universe
 * of keys), split into batches, then 30 activations and deactivations, the
 * two stores compared on every mint after the build and after each change.
 */
function generatedRound(storage: CheckStorage, seed: number, round: number): number {
  // One sequence per round, so a failing round replays alone.
  const rng = createRng((seed + Math.imul(round, 0x9e3779b9)) >>> 0);
  const universe = Array.from({ length: rng.int(2, 40) }, () => rng.bytes(32));
  const key = () => rng.pick(universe);
  const stores: TokenizedRecordStore[] = [new CompactRecordStore(), sqlStore(storage)];
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
  let compared = 0;
  const expectSame = (step: string) => {
    for (const mint of mints) {
      const [compact, sql] = stores.map((store) => [store.lookup(mint), store.isAmbiguous(mint)]);
      same(sql, compact, `round ${round} ${step} mint ${mint}`);
      compared++;
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
    } else if (stores[0]!.lookup(mint) !== undefined) {
      for (const store of stores) store.deactivate(mint);
    }
    expectSame(`after change ${change}`);
  }
  return compared;
}

/**
 * The index gives a build up when one of its partition scans fails, clears
 * the rows and builds again later, while the other scans of that round may
 * still answer: their rows must not reach the new build, nor their end
 * replace what the current build holds.
 */
function givenUpBuild(storage: CheckStorage): number {
  const rows = new Uint8Array(RECORD_BYTES);
  rows.set(new Uint8Array(32).fill(7), 0);
  rows.set(new Uint8Array(32).fill(9), 32);
  let compared = 0;
  for (const store of [new CompactRecordStore(), sqlStore(storage)] as TokenizedRecordStore[]) {
    const givenUp = store.build(1_000);
    store.clear();
    const current = store.build(1_000);
    current.add(rows);
    givenUp.add(rows);
    current.finish();
    givenUp.finish();
    same(store.isAmbiguous(keyOf(7)), false, "ambiguous after a given-up build");
    same(store.lookup(keyOf(7)), keyOf(9), "lookup after a given-up build");
    same(store.records, 1, "records after a given-up build");
    compared += 3;
  }
  return compared;
}

/** A built record active again (the same name), then gone, then a new mint: both count the same. */
function countsThroughChanges(storage: CheckStorage): number {
  const stores: TokenizedRecordStore[] = [new CompactRecordStore(), sqlStore(storage)];
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
  const steps: [string, (store: TokenizedRecordStore) => void, number][] = [
    ["built", () => {}, 2],
    ["a built record active again", (store) => store.activate(keyOf(1), keyOf(11)), 2],
    ["a built record gone", (store) => store.deactivate(keyOf(1)), 1],
    ["a new mint", (store) => store.activate(keyOf(3), keyOf(13)), 2],
    ["the gone record back", (store) => store.activate(keyOf(1), keyOf(11)), 3],
  ];
  for (const [step, change, expected] of steps) {
    for (const store of stores) change(store);
    same(
      stores.map((store) => store.records),
      [expected, expected],
      `records, ${step}`,
    );
  }
  return steps.length;
}

export const SAVED_PROGRESS = { ready: true, cursor: "sig", syncedSlot: 120, floorSlot: 120, partitioned: true };

/** A build past its bound is refused before it writes; progress and one activation are saved beside the rows. */
function boundThenSave(storage: CheckStorage): number {
  const store = sqlStore(storage);
  const build = store.build(2);
  let refused = "";
  try {
    build.add(new Uint8Array(3 * RECORD_BYTES));
  } catch (error) {
    refused = (error as Error).message;
  }
  same(/more than 2 tokenizer records/.test(refused), true, `a build past its bound: "${refused}"`);
  same(store.records, 0, "records after a refused build");
  same(store.loadProgress(), undefined, "progress before any was saved");
  store.saveProgress(SAVED_PROGRESS);
  store.activate(keyOf(1), keyOf(2));
  return 4;
}

/** A store opened again on storage that `boundThenSave` wrote finds its rows and progress. */
function reopened(storage: CheckStorage): number {
  const again = sqlStore(storage);
  same(again.loadProgress(), SAVED_PROGRESS, "progress after reopening");
  same(again.records, 1, "records after reopening");
  same(again.lookup(keyOf(1)), keyOf(2), "lookup after reopening");
  return 3;
}

/** Each check by name; `round` and `seed` matter to `generated` only. */
export const RECORD_STORE_CHECKS = {
  generated: generatedRound,
  "given-up-build": givenUpBuild,
  "counts-through-changes": countsThroughChanges,
  "bound-then-save": boundThenSave,
  reopened,
} satisfies Record<string, (storage: CheckStorage, seed: number, round: number) => number>;

export type RecordStoreCheck = keyof typeof RECORD_STORE_CHECKS;
