import { ConfigError, loadConfig } from "../../config.js";
import type { IndexHost } from "../../gateway.js";
import { createFetchTransports } from "../../rpc/transport/fetch.js";
import { type Bindings, settingsFrom } from "./bindings.js";
import { createConsoleLogger } from "./console-logger.js";
import { FLOOR_URL, NAMES_URL, parseFloorRefusal, parseNamesQuery } from "./index-object-protocol.js";
import { type SqlStorage, SqlRecordStore, type TransactionSync } from "./sql-record-store.js";

/** The part of a Durable Object's state this class uses (no dependency on a types package). */
interface DurableObjectState {
  readonly storage: { readonly sql: SqlStorage; transactionSync: TransactionSync };
}

const answer = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/**
 * The tokenized index of one set of RPC endpoints on Workers: a SQLite-backed
 * Durable Object (one per `RPC_URL` list, named by its hash) that keeps the
 * `mint → name account` rows and the index's progress in its storage, and
 * runs the same TokenizedIndex as a Node process (bootstrap, catch-ups from
 * the tokenizer's signatures, `minContextSlot` at the slot reached). One
 * object serves every isolate: a build or catch-up runs once, and requests
 * asking meanwhile share it (an object may share promises between the
 * requests it serves). Rows and progress outlive the object being evicted:
 * woken again, it catches up from its cursor instead of rebuilding.
 *
 * Its route POST {@link NAMES_URL} answers a wallet's mints read at a
 * slot with their name accounts once the index reflects that slot, or why
 * the Worker must scan instead (never an error status for a state of the
 * index: the Worker scans on anything else too). POST {@link FLOOR_URL}
 * tells it that every endpoint refused its floor (MintIndex.floorUnreachable),
 * and answers the floor in force after it.
 */
export class TokenizedIndexObject {
  private readonly store: SqlRecordStore;
  /** Built on the first query (the gateway's modules load inside a handler); null: no index to keep. */
  private host: IndexHost | null | undefined;

  constructor(
    state: DurableObjectState,
    private readonly bindings: Bindings,
  ) {
    this.store = new SqlRecordStore(state.storage.sql, (work) => state.storage.transactionSync(work));
  }

  private async indexHost(): Promise<IndexHost | null> {
    if (this.host !== undefined) return this.host;
    const { createIndexHost } = await import("../../gateway.js");
    if (this.host !== undefined) return this.host;
    try {
      const config = loadConfig(settingsFrom(this.bindings));
      this.host =
        createIndexHost(
          config,
          { logger: createConsoleLogger(config.logLevel), transports: createFetchTransports },
          this.store,
        ) ?? null;
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      this.host = null;
    }
    return this.host;
  }

  async fetch(request: Request): Promise<Response> {
    const path = new URL(request.url).pathname;
    if (request.method === "POST" && path === new URL(FLOOR_URL).pathname) return this.floorUnreachable(request);
    if (request.method !== "POST" || path !== new URL(NAMES_URL).pathname) {
      return answer(404, { error: "no such route" });
    }
    const query = parseNamesQuery(await request.json().catch(() => undefined));
    if (!query) return answer(400, { error: "expected { slot, mints }" });
    const host = await this.indexHost();
    if (!host) return answer(200, { unavailable: "failed", floor: 0 });
    try {
      return answer(200, await host.index.namesOf(query.mints, query.slot));
    } catch {
      // A mint that is not a key: the Worker validated it, so this is a fault of the query, answered as such.
      return answer(400, { error: "a mint is not a public key" });
    }
  }

  private async floorUnreachable(request: Request): Promise<Response> {
    const refusal = parseFloorRefusal(await request.json().catch(() => undefined));
    if (!refusal) return answer(400, { error: "expected { floor, servable? }" });
    const host = await this.indexHost();
    if (!host) return answer(200, { floor: 0, floorDrops: 0 });
    const floor = await host.index.floorUnreachable(refusal.floor, refusal.servable);
    return answer(200, { floor, floorDrops: host.index.floorDropCount });
  }
}
