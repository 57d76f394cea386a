import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { Address } from "@solana/kit";
import type { RpcEndpoint } from "../../rpc/endpoint.js";
import type { FullDomain } from "../../sns/domain.js";
import type { AppDeps } from "../deps.js";
import type { AppEnv } from "../env.js";
import { ok } from "../answer/envelope.js";
import { type ExampleRequest, documentedGet } from "../openapi/documented-route.js";
import { fullDomainParam } from "../openapi/request-schemas.js";
import { PublicKey } from "../openapi/response-schemas.js";

const fail = (result: string) => ({ s: "error", result });

const PRECEDENCE =
  "The first found of: the holder of an active tokenized domain's NFT; a valid V2 SOL record; " +
  "a valid V1 SOL record; the registry owner (unless a PDA).";
const SOL_PATHS =
  "`.sol` names answer `Unsupported TLD` once the RPC's finalized slot reaches the cutoff, unless " +
  "`SOL_SRS_RESOLUTION=on`: then a `.sol` name (`sub.name.sol` is one flat name) resolves through its SRS " +
  "record alone (the owner, or the unique holder of its Token-2022 mint; `Domain expired` once its expiry " +
  "has passed), with no slot read.";

/** What both routes can answer (with SRS on, `.sol` names can expire). */
const RESOLVE_ERRORS = {
  400: ["Unsupported TLD", "Invalid input"],
  404: ["Domain not found"],
  410: ["Domain expired"],
  422: ["Record is malformed"],
  500: ["Internal error"],
} as const;

const RESOLVE_EXAMPLES = {
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
    summary: "A legacy .sol name before the cutoff slot (SOL_SRS_RESOLUTION off)",
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
} as const satisfies Record<string, ExampleRequest>;

/**
 * `/resolve/:domain` and `/safe-resolve/:domain`. Both answer through the
 * resolver's per-name entry points (`Resolver.resolve`, `Resolver.safeResolve`);
 * with SRS off, or for `.sns`, they give the same answers.
 */
export function resolveRoutes(deps: AppDeps): OpenAPIHono<AppEnv> {
  const routes = new OpenAPIHono<AppEnv>();
  const { resolver } = deps;

  /**
   * An answer given at once came from the resolve cache: it carries the slot its entry was read at and its
   * `Age` (answer/headers.ts).
   */
  const servedFromCache = (c: Context<AppEnv>): void => {
    const hit = resolver.lastHit;
    if (hit === undefined) return;
    c.set("answerSlot", hit.slot);
    c.set("answerAge", resolver.ageSeconds(hit));
    c.set("answerCache", resolver.lastHitRefreshing ? "refreshed" : "hit");
  };

  /**
   * An answer given later was resolved: by this request, or (when it read nothing itself) by another it
   * shared; or it came from the resolve cache behind an await (a `.sol` name's cutoff slot read), and
   * carries that entry's slot and `Age` (noted on the budget, RequestBudget.noteCachedRead).
   */
  const resolvedLater = (c: Context<AppEnv>): void => {
    if (c.get("answerCache") !== undefined) return;
    const budget = c.get("rpcBudget");
    if (budget !== undefined && budget.cachedReadAt !== Infinity) {
      // With SRS on, one side of `/safe-resolve` may have been read now: a miss, as old as its oldest part.
      c.set("answerCache", c.get("rpcUsage")?.calls ? "miss" : "hit");
      c.set("answerSlot", Math.min(budget.cachedSlot, budget.lowestSlot));
      c.set("answerAge", resolver.ageSeconds({ readAt: budget.cachedReadAt }));
      return;
    }
    c.set("answerCache", c.get("rpcUsage")?.calls ? "miss" : "coalesced");
  };

  /** The key in the envelope, shared no longer than the SRS record it was read from stays unexpired. */
  const answer = (c: Context<AppEnv>, endpoint: RpcEndpoint, domain: FullDomain, key: Address): Response => {
    resolvedLater(c);
    const lifetimeMs = resolver.answerLifetime(endpoint, domain);
    return lifetimeMs === Infinity ? ok(c, key) : ok(c, key, { lifetimeMs });
  };

  /**
   * A route's handler over one per-name entry point; `repeatable` says when a repeat may be answered
   * before the app. No async frame of its own: a cache hit is answered synchronously, a resolution in
   * the one step that settles it.
   */
  const handler =
    (
      resolve: (endpoint: RpcEndpoint, domain: FullDomain) => Address | Promise<Address>,
      repeatable: (domain: FullDomain) => boolean,
    ) =>
    (c: Context<AppEnv>, { params }: { params: { domain: FullDomain } }) => {
      const domain = params.domain;
      if (repeatable(domain)) deps.resolveRepeats?.learn(c, domain);
      const endpoint = c.get("rpc")();
      let key: Address | Promise<Address>;
      try {
        key = resolve(endpoint, domain);
      } catch (error) {
        // A failure given at once is a cached one too (a missing domain, a malformed record).
        servedFromCache(c);
        throw error;
      }
      if (typeof key !== "string") {
        return key.then(
          (resolved) => answer(c, endpoint, domain, resolved),
          (error: unknown) => {
            resolvedLater(c);
            throw error;
          },
        );
      }
      servedFromCache(c);
      return answer(c, endpoint, domain, key);
    };

  documentedGet(
    routes,
    {
      paths: ["/resolve/{domain}"],
      tag: "Resolution",
      summary: "The key that should receive funds for a domain",
      description: `${PRECEDENCE} ${SOL_PATHS}`,
      params: { domain: fullDomainParam },
      query: {},
      rpc: true,
      cache: "resolve",
      result: PublicKey,
      errors: RESOLVE_ERRORS,
      examples: RESOLVE_EXAMPLES,
    },
    handler(
      (endpoint, domain) => resolver.resolve(endpoint, domain),
      () => true,
    ),
  );

  documentedGet(
    routes,
    {
      paths: ["/safe-resolve/{domain}"],
      tag: "Resolution",
      summary: "The key of a domain, cross-checked across registries",
      description:
        "With `SOL_SRS_RESOLUTION=on`, a `.sol` name is resolved through its SRS record and through the " +
        "name service (the `.sns` precedence, no slot read) at once; the key is answered when both agree, " +
        "`SRS and SNS resolution mismatch` (409) when they differ, and the SRS side's error when both fail. " +
        "Otherwise (SRS off, or a `.sns` name) it answers exactly as `/resolve`.",
      params: { domain: fullDomainParam },
      query: {},
      rpc: true,
      cache: "resolve",
      result: PublicKey,
      errors: { ...RESOLVE_ERRORS, 409: ["SRS and SNS resolution mismatch"] },
      // The demo answers with SRS off, where /safe-resolve is /resolve.
      examples: {
        tokenized: RESOLVE_EXAMPLES.tokenized,
        "v2-sol": RESOLVE_EXAMPLES["v2-sol"],
        "domain-not-found": RESOLVE_EXAMPLES["domain-not-found"],
        "record-is-malformed": RESOLVE_EXAMPLES["record-is-malformed"],
      },
    },
    // Where it answers as /resolve, a repeat may be answered from the resolve cache before the app.
    handler(
      (endpoint, domain) => resolver.safeResolve(endpoint, domain),
      (domain) => !resolver.readsSrs(domain),
    ),
  );
  return routes;
}
