import type { OpenAPIHono } from "@hono/zod-openapi";
import { SnsError } from "../../../sns/errors.js";
import { openLegacyName } from "../../../sns/queries/legacy-names.js";
import { readRecordV2, readRecordsV2 } from "../../../sns/queries/records.js";
import type { RecordResponse } from "../../../sns/record-response.js";
import { RecordTypeByName, isRecordType } from "../../../sns/record-types.js";
import type { AppDeps } from "../../deps.js";
import type { AppEnv } from "../../env.js";
import { fail, ok } from "../../answer/envelope.js";
import { INTERNAL_ERROR, legacyGet, legacyRoutes } from "./legacy-route.js";
import { withRecordList } from "./record-list.js";

/**
 * The retired hosts forced decoding: a record without a string form (an undecodable one, any `background`)
 * failed the request. Kept, so a client never gets a record object it never got before.
 */
function decoded<R extends RecordResponse>(record: R): R {
  if (record.deserialized === undefined) throw new SnsError("INVALID_RECORD_DATA", "record content has no string form");
  return record;
}

/**
 * `/record-v2/:domain/:record`, `/records-v2/:domain?records=…` and `/types/record`. A record type must be
 * an exact value of the record enum, and `records` a comma-separated list of 1 to 100 of them (items
 * untrimmed, no empty one, duplicates kept, as v1 caps it): else 400 `Invalid input`; any other failure 500 `Internal error`, as on the retired hosts. `stale`
 * and `roa` follow today's rule (the NFT holder counts); `/records-v2` leaves a missing record out instead
 * of stopping at it.
 */
export function legacyRecordRoutes(deps: AppDeps): OpenAPIHono<AppEnv> {
  const routes = legacyRoutes();
  legacyGet(routes, "/record-v2/:domain/:record", { rpc: true, fixedFailure: INTERNAL_ERROR }, async (c) => {
    const record = c.req.param("record")!;
    if (!isRecordType(record)) return fail(c, 400, "Invalid input");
    const endpoint = c.get("rpc")();
    const domain = await openLegacyName(endpoint, c.req.param("domain")!, deps.resolver.srsResolution);
    return ok(c, decoded(await readRecordV2(endpoint, domain.name, record)));
  });
  legacyGet(routes, "/records-v2/:domain", { rpc: true, fixedFailure: INTERNAL_ERROR }, (c) =>
    withRecordList(deps, c, async (types) => {
      const endpoint = c.get("rpc")();
      const domain = await openLegacyName(endpoint, c.req.param("domain")!, deps.resolver.srsResolution);
      return ok(c, (await readRecordsV2(endpoint, domain.name, types)).map(decoded));
    }),
  );
  legacyGet(routes, "/types/record", { rpc: false, fixedFailure: INTERNAL_ERROR }, (c) => ok(c, RecordTypeByName));
  return routes;
}
