import type { Address } from "@solana/kit";
import { OverBudgetError, RECORD_BYTES } from "../../service/compact-records.js";
import type { IndexProgress, RecordsBuild, TokenizedRecordStore } from "../../service/record-store.js";
import { addressToBytes, bytesToAddress } from "../../sns/bytes.js";

/** A value SQLite hands back: blobs come as ArrayBuffer in a Durable Object (Uint8Array in node:sqlite). */
export type SqlValue = ArrayBuffer | Uint8Array | string | number | null;

/** The part of a Durable Object's `ctx.storage.sql` this store uses (no dependency on a types package). */
export interface SqlStorage {
  exec(query: string, ...bindings: unknown[]): { toArray(): Record<string, SqlValue>[] };
}

/** Runs `work` as one transaction (`ctx.storage.transactionSync` in a Durable Object). */
export type TransactionSync = <T>(work: () => T) => T;

const SCHEMA = [
  // One row per mint; `ambiguous` marks a mint more than one active record names.
  "CREATE TABLE IF NOT EXISTS tokenized_records (mint BLOB PRIMARY KEY, name BLOB NOT NULL, ambiguous INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID",
  "CREATE TABLE IF NOT EXISTS tokenized_progress (id INTEGER PRIMARY KEY CHECK (id = 1), progress TEXT NOT NULL)",
];
const INSERT_BUILT =
  "INSERT INTO tokenized_records (mint, name) VALUES (?, ?) ON CONFLICT (mint) DO UPDATE SET ambiguous = 1";
const LOOKUP = "SELECT name, ambiguous FROM tokenized_records WHERE mint = ?";

/** A blob binding: a Durable Object binds an ArrayBuffer exactly (a view would bind its whole buffer). */
const blob = (bytes: Uint8Array): ArrayBuffer => bytes.slice().buffer;
const bytesOf = (value: SqlValue): Uint8Array => {
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  throw new TypeError("tokenized_records holds a non-blob key");
};

/**
 * The tokenized index's rows in SQLite, in the Durable Object that keeps the
 * index of one set of RPC endpoints: one row per mint, looked up by its
 * primary key, and the index's progress in a one-row table beside them,
 * written in the same storage so both survive the object being evicted.
 * A build deletes the previous rows first and inserts each scan answer in
 * one transaction. `bytes` counts RECORD_BYTES per row, as the compact
 * rows do, so TOKENIZED_INDEX_MAX_MB bounds the same number of records on
 * both platforms.
 */
export class SqlRecordStore implements TokenizedRecordStore {
  private count: number;
  /**
   * Bumped by every clear: a build writes into the shared table, so the
   * scans of a build given up (one of its scans failed, the rows were
   * cleared, maybe a new build began) must not add their late answers.
   */
  private generation = 0;

  constructor(
    private readonly sql: SqlStorage,
    private readonly transaction: TransactionSync,
  ) {
    for (const statement of SCHEMA) sql.exec(statement);
    this.count = this.counted();
  }

  private counted(): number {
    return Number(this.sql.exec("SELECT count(*) AS n FROM tokenized_records").toArray()[0]?.n ?? 0);
  }

  get records(): number {
    return this.count;
  }

  get bytes(): number {
    return this.count * RECORD_BYTES;
  }

  private row(mint: Address): { name: Address; ambiguous: boolean } | undefined {
    const [found] = this.sql.exec(LOOKUP, blob(addressToBytes(mint))).toArray();
    if (!found) return undefined;
    return { name: bytesToAddress(bytesOf(found.name!)), ambiguous: found.ambiguous === 1 };
  }

  lookup(mint: Address): Address | undefined {
    const found = this.row(mint);
    return found && !found.ambiguous ? found.name : undefined;
  }

  isAmbiguous(mint: Address): boolean {
    return this.row(mint)?.ambiguous ?? false;
  }

  activate(mint: Address, name: Address): void {
    const found = this.row(mint);
    if (found?.ambiguous) return;
    if (found && found.name !== name) {
      this.sql.exec("UPDATE tokenized_records SET ambiguous = 1 WHERE mint = ?", blob(addressToBytes(mint)));
      return;
    }
    if (!found) this.count++;
    this.sql.exec(
      "INSERT OR REPLACE INTO tokenized_records (mint, name, ambiguous) VALUES (?, ?, 0)",
      blob(addressToBytes(mint)),
      blob(addressToBytes(name)),
    );
  }

  deactivate(mint: Address): void {
    if (!this.row(mint)) return;
    this.sql.exec("DELETE FROM tokenized_records WHERE mint = ?", blob(addressToBytes(mint)));
    this.count--;
  }

  clear(): void {
    this.sql.exec("DELETE FROM tokenized_records");
    this.count = 0;
    this.generation++;
  }

  build(maxRecords: number): RecordsBuild {
    this.clear();
    const generation = this.generation;
    let added = 0;
    return {
      add: (rows) => {
        if (generation !== this.generation) return;
        const records = rows.length / RECORD_BYTES;
        if (added + records > maxRecords) throw new OverBudgetError(`more than ${maxRecords} tokenizer records`);
        added += records;
        this.transaction(() => {
          for (let i = 0; i < records; i++) {
            const at = i * RECORD_BYTES;
            this.sql.exec(
              INSERT_BUILT,
              blob(rows.subarray(at, at + 32)),
              blob(rows.subarray(at + 32, at + RECORD_BYTES)),
            );
          }
        });
        this.count += records;
      },
      // Rows of one mint are one row: what the table holds is counted once, at the end.
      finish: () => {
        if (generation === this.generation) this.count = this.counted();
      },
    };
  }

  loadProgress(): IndexProgress | undefined {
    const [saved] = this.sql.exec("SELECT progress FROM tokenized_progress WHERE id = 1").toArray();
    if (!saved || typeof saved.progress !== "string") return undefined;
    try {
      const progress = JSON.parse(saved.progress) as IndexProgress;
      const slots = [progress.syncedSlot, progress.floorSlot];
      if (!slots.every(Number.isSafeInteger)) return undefined;
      return progress;
    } catch {
      return undefined;
    }
  }

  saveProgress(progress: IndexProgress): void {
    this.sql.exec("INSERT OR REPLACE INTO tokenized_progress (id, progress) VALUES (1, ?)", JSON.stringify(progress));
  }
}
