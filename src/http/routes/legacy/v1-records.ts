import type { OpenAPIHono } from "@hono/zod-openapi";
import { base64 } from "@scure/base";
import { deriveDomainKey, deriveRecordV1Key } from "../../../sns/derive.js";
import { openLegacyName, refuseSrsSol } from "../../../sns/queries/legacy-names.js";
import { readRecordV1, readRecordsV1 } from "../../../sns/queries/legacy-reads.js";
import { isRecordType } from "../../../sns/record-types.js";
import type { AppDeps } from "../../deps.js";
import type { AppEnv } from "../../env.js";
import { fail, ok } from "../../answer/envelope.js";
import { INTERNAL_ERROR, legacyGet, legacyRoutes } from "./legacy-route.js";
import { withRecordList } from "./record-list.js";

const utf8Decoder = new TextDecoder("utf-8", { fatal: false });

/**
 * The V1 record routes, which v1 retired: `/record-key/:domain/:record` (the V1 record key, no RPC),
 * `/record/:domain/:record` (base64 of the record's body, cut to its type's size) and
 * `/records/:domain?records=…` (positional `{record, data}`, `data` the whole body as UTF-8, absent for a
 * missing record), at most 100 types as on `/records-v2`. With SRS on, a `.sol` name is refused on all three (500), `/record-key` included: its key
 * would be the `.sns` account's record, not the SRS owner's; past the cutoff `/record-key` (no RPC, so no
 * slot) still derives the `.sns` key, as `/domain-key` does. A record type must be an exact value of the enum (400 `Invalid input`); anything else
 * is 500 `Internal error`, a missing domain or record included, as on the retired hosts.
 */
export function legacyV1RecordRoutes(deps: AppDeps): OpenAPIHono<AppEnv> {
  const routes = legacyRoutes();
  legacyGet(routes, "/record-key/:domain/:record", { rpc: false, fixedFailure: INTERNAL_ERROR }, (c) => {
    const record = c.req.param("record")!;
    if (!isRecordType(record)) return fail(c, 400, "Invalid input");
    return ok(
      c,
      deriveRecordV1Key(
        deriveDomainKey(refuseSrsSol(c.req.param("domain")!, deps.resolver.srsResolution).name),
        record,
      ),
    );
  });
  legacyGet(routes, "/record/:domain/:record", { rpc: true, fixedFailure: INTERNAL_ERROR }, async (c) => {
    const record = c.req.param("record")!;
    if (!isRecordType(record)) return fail(c, 400, "Invalid input");
    const endpoint = c.get("rpc")();
    const domain = await openLegacyName(endpoint, c.req.param("domain")!, deps.resolver.srsResolution);
    return ok(c, base64.encode(await readRecordV1(endpoint, domain.name, record)));
  });
  legacyGet(routes, "/records/:domain", { rpc: true, fixedFailure: INTERNAL_ERROR }, (c) =>
    withRecordList(deps, c, async (types) => {
      const endpoint = c.get("rpc")();
      const domain = await openLegacyName(endpoint, c.req.param("domain")!, deps.resolver.srsResolution);
      const bodies = await readRecordsV1(endpoint, domain.name, types);
      return ok(
        c,
        types.map((record, i) => {
          const body = bodies[i];
          return body === undefined ? { record } : { record, data: utf8Decoder.decode(body) };
        }),
      );
    }),
  );
  return routes;
}
