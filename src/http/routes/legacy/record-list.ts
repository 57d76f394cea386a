import type { Context } from "hono";
import type { RecordType } from "../../../sns/record-types.js";
import { isRecordType } from "../../../sns/record-types.js";
import { clientOf } from "../../clients/client-key.js";
import type { AppDeps } from "../../deps.js";
import type { AppEnv } from "../../env.js";
import { fail } from "../../answer/envelope.js";
import { MAX_BATCH_RECORDS } from "../../openapi/request-schemas.js";

/**
 * A `records=…` list of the retired hosts' record routes (`/records-v2`, `/records`): comma-separated exact
 * values of the record enum, 1 to 100 of them as v1 caps it, items untrimmed, no empty one, duplicates kept
 * (else 400 `Invalid input`). `read` runs in the records bulkhead, costing one unit per distinct type:
 * each is read once whatever it is repeated, so the units are what the request costs.
 */
export function withRecordList(
  deps: AppDeps,
  c: Context<AppEnv>,
  read: (types: readonly RecordType[]) => Promise<Response>,
): Response | Promise<Response> {
  const items = c.req.query("records")?.split(",");
  if (items === undefined || items.length > MAX_BATCH_RECORDS || !items.every(isRecordType)) {
    return fail(c, 400, "Invalid input");
  }
  const types = items as RecordType[];
  return deps.bulkheads.records.run(new Set(types).size, () => read(types), clientOf(deps)(c));
}
