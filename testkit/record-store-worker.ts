import type { SqlStorage, TransactionSync } from "../src/platform/workers/sql-record-store.js";
import { CheckFailure, type CheckStorage, RECORD_STORE_CHECKS, type RecordStoreCheck } from "./record-store-checks.js";

/*
 * A Worker that runs the record-store checks (record-store-checks.ts) inside
 * a SQLite-backed Durable Object, bundled and started under workerd by
 * testkit/workerd-record-store.ts. `/<object>/<check>?seed=&round=` runs one
 * check in the object named <object>: a fresh name is an empty storage, the
 * same name (across a restart with persisted storage too) the same storage.
 */

interface ObjectState {
  readonly storage: { readonly sql: SqlStorage; transactionSync: TransactionSync };
}

interface Env {
  readonly STORE_CHECKS: {
    idFromName(name: string): unknown;
    get(id: unknown): { fetch(request: Request): Promise<Response> };
  };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

export class StoreChecks {
  constructor(private readonly state: ObjectState) {}

  fetch(request: Request): Response {
    const url = new URL(request.url);
    const check = url.pathname.split("/")[2] as RecordStoreCheck;
    const run = RECORD_STORE_CHECKS[check];
    if (!run) return json(404, { error: `no check ${check}` });
    const storage: CheckStorage = {
      sql: this.state.storage.sql,
      transaction: (work) => this.state.storage.transactionSync(work),
    };
    try {
      const compared = run(storage, Number(url.searchParams.get("seed")), Number(url.searchParams.get("round")));
      return json(200, { compared });
    } catch (error) {
      // A failed comparison is the answer; anything else is a fault of the harness, with its stack.
      const failure = error instanceof CheckFailure ? error.message : String((error as Error).stack ?? error);
      return json(200, { failure });
    }
  }
}

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    const object = new URL(request.url).pathname.split("/")[1] ?? "";
    return env.STORE_CHECKS.get(env.STORE_CHECKS.idFromName(object)).fetch(request);
  },
};
