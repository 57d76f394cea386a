import type { Address } from "@solana/kit";

/**
 * How far the tokenized index has read the chain. Kept beside the rows
 * where they outlive the process (a Durable Object's storage), so an index
 * woken again catches up from its cursor instead of rebuilding.
 */
export interface IndexProgress {
  /** The rows reflect every tokenizer transaction up to `syncedSlot`; false while a build is under way. */
  readonly ready: boolean;
  /** Newest tokenizer signature already applied. */
  readonly cursor: string | undefined;
  readonly syncedSlot: number;
  /** Highest slot ever reached: never asked below again. */
  readonly floorSlot: number;
  /** The whole-program scan was once too large: builds go straight to partitions. */
  readonly partitioned: boolean;
}

/**
 * The rows of one build, added as the scans answer. Once the store has been
 * cleared since (the build was given up, a newer one started), the build
 * changes nothing: scans still in flight when a build failed may answer late.
 */
export interface RecordsBuild {
  /** Records of RECORD_BYTES each (mint then name account); throws OverBudgetError past the build's bound. */
  add(rows: Uint8Array): void;
  /** The build's rows become the store's. */
  finish(): void;
}

/**
 * Where the tokenized index keeps `mint → name account`: compact typed
 * arrays in the process on Node (compact-records.ts), SQLite in a Durable
 * Object on Workers (platform/workers/sql-record-store.ts). The index's
 * rules (bootstrap, catch-ups, `minContextSlot`) are the same over both.
 */
export interface TokenizedRecordStore {
  /** Active records held. */
  readonly records: number;
  /** What the rows take, against the index's budget (TOKENIZED_INDEX_MAX_MB). */
  readonly bytes: number;
  /** The name account of a mint that exactly one active record names. */
  lookup(mint: Address): Address | undefined;
  /** More than one active record names this mint (the SDK counts it as no match). */
  isAmbiguous(mint: Address): boolean;
  /** A record naming `mint` became active: the mint is ambiguous when another name holds it. */
  activate(mint: Address, name: Address): void;
  /** The record naming `mint` went inactive. */
  deactivate(mint: Address): void;
  /** Drops every row: a build never holds two copies, and a failed index holds none. */
  clear(): void;
  /** Starts a build into an empty store; past `maxRecords` its `add` throws OverBudgetError. */
  build(maxRecords: number): RecordsBuild;
  /** The progress saved with the rows, if it outlives the process. */
  loadProgress(): IndexProgress | undefined;
  saveProgress(progress: IndexProgress): void;
}
