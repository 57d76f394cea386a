import { type Context, Hono } from "hono";
import { deriveDomainKey, deriveRecordV2Key } from "../../sns/derive.js";
import { Record } from "../../sns/record-types.js";
import { readRecordV2, readRecordsV2 } from "../../sns/queries/records.js";
import type { AppDeps, AppEnv } from "../deps.js";
import { ok } from "../envelope.js";
import { domainParam, recordParam, recordsQuery } from "../record-params.js";
import { hasRpcParam, rpcOverride } from "../rpc-param.js";

export const RECORD_PATHS = [
  "/record-key-v2/:domain/:record",
  "/record-v2/:domain/:record",
  "/records-v2/:domain",
  "/types/record",
] as const;

/**
 * Record reads (§7.3): `/record-key-v2` and `/types/record` need no RPC;
 * `/record-v2` and `/records-v2` read everything in one account fetch.
 * Paths are validated before the `rpc` override is looked at, as upstream.
 */
export function recordRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  // Answers depend only on the chain, so shared caches may keep them briefly;
  // an `rpc` override names someone else's chain view and is never shared.
  const cacheable = `public, max-age=${deps.cacheTtlSeconds}, stale-while-revalidate=180, stale-if-error=0`;
  const cache = (c: Context<AppEnv>) => {
    if (!hasRpcParam(c)) c.set("cacheControl", cacheable);
  };

  routes.get("/record-key-v2/:domain/:record", (c) => {
    const name = domainParam(c);
    const record = recordParam(c);
    cache(c);
    return ok(c, deriveRecordV2Key(deriveDomainKey(name), record));
  });

  routes.get("/record-v2/:domain/:record", async (c) => {
    const name = domainParam(c);
    const record = recordParam(c);
    const endpoint = deps.endpoints.select(rpcOverride(c));
    const result = await readRecordV2(endpoint, name, record);
    cache(c);
    return ok(c, result);
  });

  routes.get("/records-v2/:domain", async (c) => {
    const name = domainParam(c);
    const records = recordsQuery(c);
    const endpoint = deps.endpoints.select(rpcOverride(c));
    const result = await readRecordsV2(endpoint, name, records);
    cache(c);
    return ok(c, result);
  });

  routes.get("/types/record", (c) => {
    cache(c);
    return ok(c, Record);
  });

  return routes;
}
