import { Hono } from "hono";
import { deriveDomainKey, deriveRecordV2Key } from "../../sns/derive.js";
import { readRecordV2, readRecordsV2 } from "../../sns/queries/records.js";
import { Record } from "../../sns/record-types.js";
import type { AppEnv } from "../deps.js";
import { ok } from "../envelope.js";
import { domainParam, recordParam, recordsQuery } from "../params.js";

/**
 * Record reads (§7.3): `/record-key-v2` and `/types/record` need no RPC;
 * `/record-v2` and `/records-v2` read everything in one account fetch.
 */
export function recordRoutes(): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .get("/record-key-v2/:domain/:record", (c) => {
      const name = domainParam(c);
      const record = recordParam(c);
      return ok(c, deriveRecordV2Key(deriveDomainKey(name), record));
    })
    .get("/record-v2/:domain/:record", async (c) => {
      const name = domainParam(c);
      const record = recordParam(c);
      return ok(c, await readRecordV2(c.var.rpc(), name, record));
    })
    .get("/records-v2/:domain", async (c) => {
      const name = domainParam(c);
      const records = recordsQuery(c);
      return ok(c, await readRecordsV2(c.var.rpc(), name, records));
    })
    .get("/types/record", (c) => ok(c, Record));
}
