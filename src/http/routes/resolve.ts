import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppDeps, AppEnv } from "../deps.js";
import { ok } from "../answer/envelope.js";
import { documentedGet } from "../openapi/documented-route.js";
import { fullDomainParam } from "../openapi/request-schemas.js";
import { PublicKey } from "../openapi/response-schemas.js";

const fail = (result: string) => ({ s: "error", result });

/**
 * `/resolve/:domain` and `/safe-resolve/:domain`. They are the same route
 * while SRS-backed `.sol` resolution is disabled (as in the official SDK);
 * enabling SRS means giving `/safe-resolve` its own resolver call that
 * cross-checks both registries (SnsError SRS_MISMATCH → 409).
 */
export function resolveRoutes(deps: AppDeps): OpenAPIHono<AppEnv> {
  const routes = new OpenAPIHono<AppEnv>();
  documentedGet(
    routes,
    {
      paths: ["/resolve/{domain}", "/safe-resolve/{domain}"],
      tag: "Resolution",
      summary: "The key that should receive funds for a domain",
      description:
        "The first found of: the holder of an active tokenized domain's NFT; a valid V2 SOL record; " +
        "a valid V1 SOL record; the registry owner (unless a PDA). `.sol` names answer `Unsupported TLD` " +
        "once the RPC's finalized slot reaches the cutoff. `/safe-resolve` is the same route while " +
        "SRS-backed `.sol` resolution is disabled.",
      params: { domain: fullDomainParam },
      query: {},
      rpc: true,
      result: PublicKey,
      errors: {
        400: ["Unsupported TLD", "Invalid input"],
        404: ["Domain not found"],
        422: ["Record is malformed"],
        500: ["Internal error"],
      },
      examples: {
        tokenized: {
          summary: "Tokenized domain: the NFT holder",
          params: { domain: "bonfida.sns" },
          status: 200,
          body: { s: "ok", result: "Hbn1ZdzThM2Hhd4V79imRRHFBsnjzskG6j9GZto8fSs7" },
        },
        "v2-sol": {
          summary: "A valid V2 SOL record",
          params: { domain: "v2-sol.sns" },
          status: 200,
          body: { s: "ok", result: "F56ChgeNWwCq9bDW5RE6UH8CXJ3se3mi8mSpcAvECsww" },
        },
        subdomain: {
          summary: "A subdomain: its registry owner",
          params: { domain: "dex.bonfida.sns" },
          status: 200,
          body: { s: "ok", result: "C8jwKc5ieVM1yzMqMsW7ShJyTnN2GbLaf8XV2s4hthRS" },
        },
        "legacy-sol": {
          summary: "A legacy .sol name before the cutoff slot",
          params: { domain: "plain.sol" },
          status: 200,
          body: { s: "ok", result: "C8jwKc5ieVM1yzMqMsW7ShJyTnN2GbLaf8XV2s4hthRS" },
        },
        "unsupported-tld": {
          summary: "Any other suffix, checked before the labels",
          params: { domain: "a.b.bonfida.com" },
          status: 400,
          body: fail("Unsupported TLD"),
        },
        "invalid-input": {
          summary: "Three labels before the suffix",
          params: { domain: "a.b.bonfida.sns" },
          status: 400,
          body: fail("Invalid input"),
        },
        "domain-not-found": {
          summary: "No registry account",
          params: { domain: "nobody.sns" },
          status: 404,
          body: fail("Domain not found"),
        },
        "record-is-malformed": {
          summary: "A V2 SOL record whose right of association fails",
          params: { domain: "invalid-roa.sns" },
          status: 422,
          body: fail("Record is malformed"),
        },
      },
    },
    // No async frame of its own: a cache hit is answered synchronously, a resolution in the one step that settles it.
    (c, { params }) => {
      deps.resolveShortcut?.learn(c, params.domain);
      const key = deps.resolver.resolve(c.get("rpc")(), params.domain);
      return typeof key === "string" ? ok(c, key) : key.then((resolved) => ok(c, resolved));
    },
  );
  return routes;
}
