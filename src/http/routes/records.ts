import { clientOf } from "../frame/client-key.js";
import { OpenAPIHono, z } from "@hono/zod-openapi";
import { deriveDomainKey, deriveRecordV2Key } from "../../sns/derive.js";
import { readRecordV2, readRecordsV2 } from "../../sns/queries/records.js";
import { Record } from "../../sns/record-types.js";
import type { AppDeps, AppEnv } from "../deps.js";
import { ok } from "../answer/envelope.js";
import { documentedGet } from "../openapi/documented-route.js";
import { domainNameParam, recordsQueryParam, recordTypeParam } from "../openapi/request-schemas.js";
import { PublicKey, RecordV2, RecordV2BatchItem } from "../openapi/response-schemas.js";

const fail = (result: string) => ({ s: "error", result });

const PLAIN_EMAIL = {
  deserialized: "bob@example.com",
  stale: false,
  record: {
    header: { stalenessValidation: 1, rightOfAssociationValidation: 0, contentLength: 15 },
    data: "pWwrnixrcGBXAYceXPlvwmcVq28iyCJP6UjcxqX0+4Fib2JAZXhhbXBsZS5jb20=",
  },
};

const PROFILE_BACKGROUND = {
  stale: false,
  record: {
    header: { stalenessValidation: 1, rightOfAssociationValidation: 0, contentLength: 32 },
    data: "pWwrnixrcGBXAYceXPlvwmcVq28iyCJP6UjcxqX0+4EkARx3tY5NwZYXRm5HmmV5yXBbfUJl2zICtq3vvLJrHA==",
  },
};

/**
 * Record reads: `/record-key-v2` and `/types/record` need no RPC;
 * `/record-v2` and `/records-v2` read everything in one account fetch.
 */
export function recordRoutes(deps: AppDeps): OpenAPIHono<AppEnv> {
  const routes = new OpenAPIHono<AppEnv>();

  documentedGet(
    routes,
    {
      paths: ["/record-key-v2/{domain}/{record}"],
      tag: "Records",
      summary: "The V2 record account key (no RPC)",
      params: { domain: domainNameParam, record: recordTypeParam },
      query: {},
      rpc: false,
      cache: "chain",
      result: PublicKey,
      errors: { 400: ["Invalid input"] },
      examples: {
        url: {
          summary: "The url record of plain",
          params: { domain: "plain", record: "url" },
          status: 200,
          body: { s: "ok", result: "EjF6Rf5EBnfa4n9zYvDzJc7ns7GUTsgt6av1DZBt5JH" },
        },
        "unknown-type": {
          summary: "Record types are case-sensitive",
          params: { domain: "plain", record: "sol" },
          status: 400,
          body: fail("Invalid input"),
        },
      },
    },
    (c, { params }) => ok(c, deriveRecordV2Key(deriveDomainKey(params.domain), params.record)),
  );

  documentedGet(
    routes,
    {
      paths: ["/record-v2/{domain}/{record}"],
      tag: "Records",
      summary: "One V2 record, verified and decoded",
      description:
        "`stale` is true unless the record's staleness id is the domain's current owner; `roa` is present " +
        "for types with a verifier (SOL, ETH, BSC, BASE, INJ self-signed; url, CNAME guardian-signed).",
      params: { domain: domainNameParam, record: recordTypeParam },
      query: {},
      rpc: true,
      cache: "chain",
      result: RecordV2,
      errors: { 400: ["Invalid input"], 404: ["Record not found"], 422: ["Record is malformed"] },
      examples: {
        email: {
          summary: "A decoded record",
          params: { domain: "plain", record: "email" },
          status: 200,
          body: { s: "ok", result: PLAIN_EMAIL },
        },
        background: {
          summary: "A background record: returned without deserialized",
          params: { domain: "profile", record: "background" },
          status: 200,
          body: { s: "ok", result: PROFILE_BACKGROUND },
        },
        "record-not-found": {
          summary: "No such record",
          params: { domain: "plain", record: "BTC" },
          status: 404,
          body: fail("Record not found"),
        },
        "bad-domain": {
          summary: "Empty label",
          params: { domain: "plain.", record: "SOL" },
          status: 400,
          body: fail("Invalid input"),
        },
      },
    },
    async (c, { params }) => ok(c, await readRecordV2(c.get("rpc")(), params.domain, params.record)),
  );

  documentedGet(
    routes,
    {
      paths: ["/records-v2/{domain}"],
      tag: "Records",
      summary: "1 to 100 V2 records in one call",
      description:
        "In the order asked, duplicates twice, missing records omitted. A record whose content cannot be " +
        "decoded is returned without `deserialized`; a record whose header is unreadable fails the request (422).",
      params: { domain: domainNameParam },
      query: { records: recordsQueryParam },
      rpc: true,
      cache: "chain",
      result: z.array(RecordV2BatchItem),
      errors: {
        400: ["Invalid input"],
        404: ["Domain not found"],
        422: ["Record is malformed"],
        503: ["Service overloaded"],
      },
      examples: {
        several: {
          summary: "Two records asked, one missing (BTC): omitted",
          params: { domain: "plain" },
          query: { records: "email,BTC" },
          status: 200,
          body: { s: "ok", result: [{ type: "email", ...PLAIN_EMAIL }] },
        },
        "domain-not-found": {
          summary: "No registry account",
          params: { domain: "nobody" },
          query: { records: "SOL" },
          status: 404,
          body: fail("Domain not found"),
        },
        "bad-records": {
          summary: "Not a record type",
          params: { domain: "profile" },
          query: { records: "SOL,nope" },
          status: 400,
          body: fail("Invalid input"),
        },
      },
    },
    // Bulkhead: records decoded and answered at once, whatever the number of requests asking; each client its fair share.
    (c, { params, query }) =>
      deps.bulkheads.records.run(
        query.records.length,
        async () => ok(c, await readRecordsV2(c.get("rpc")(), params.domain, query.records)),
        clientOf(deps)(c),
      ),
  );

  documentedGet(
    routes,
    {
      paths: ["/types/record"],
      tag: "Records",
      summary: "The 28 record types (member → value)",
      params: {},
      query: {},
      rpc: false,
      cache: "chain",
      result: z.record(z.string(), z.string()),
      errors: {},
      examples: { types: { summary: "Always the same", status: 200, body: { s: "ok", result: Record } } },
    },
    (c) => ok(c, Record),
  );

  return routes;
}
