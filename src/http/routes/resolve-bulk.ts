import { clientOf } from "../clients/client-key.js";
import { OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { Address } from "@solana/kit";
import type { FullDomain } from "../../sns/domain.js";
import type { Settled } from "../../service/bulk-resolution.js";
import { SnsError } from "../../sns/errors.js";
import type { RpcEndpoint } from "../../rpc/endpoint.js";
import type { AppDeps } from "../deps.js";
import type { AppEnv, BulkTally } from "../env.js";
import { ok } from "../answer/envelope.js";
import { classify } from "../answer/classify.js";
import { documentedPost } from "../openapi/documented-post.js";
import { fullDomainParam, plainCheckOf } from "../openapi/request-schemas.js";
import { PublicKey } from "../openapi/response-schemas.js";
import { routePatternOf } from "../answer/request-log.js";

/** Most names one bulk request may ask for. */
export const MAX_BULK_NAMES = 1000;
/** Largest bulk request body: 1,000 names of ~250 bytes in JSON. */
export const MAX_BULK_BODY_BYTES = 256 * 1024;
/**
 * Bulk requests resolving at once (both routes together); later ones wait,
 * their body read (see BULK_LINE). 64 requests of 1,000 names at once took the
 * compiled gateway's peak RSS to 169 MB without a limit
 * (test/process/bulk-rss.test.ts, which holds it under the bulk routes' 180 MB).
 */
export const BULK_CONCURRENCY = 4;
/**
 * The bulk routes' line (both routes together): requests receiving their
 * body, and requests waiting with it read for a place. Each holds at most
 * 256 KiB of body, so the line holds at most 32 MiB of bodies; past it, 503
 * (a request receiving its body longest gives its place to a newer one).
 */
export const BULK_LINE = { receiving: 64, waiting: 64 } as const;
/**
 * Names per request budget of JSON-RPC calls: a bulk request may cause the
 * calls of one GET per 100 distinct names. 100 names need 4–10 calls (4 keys
 * each in getMultipleAccounts calls of 100, a holder lookup and a token
 * account per NFT holder), far within `RPC_OVERRIDE_BUDGET_CALLS` (200).
 */
export const NAMES_PER_BUDGET = 100;

const BulkBody = z
  .object({
    domains: z
      .array(z.string())
      .min(1)
      .max(MAX_BULK_NAMES)
      .describe(
        `1 to ${MAX_BULK_NAMES} domains, each taken as the \`:domain\` of \`GET /resolve/:domain\` would be ` +
          "(trimmed and lowercased; a `/` is just a character). Repeats are resolved once.",
      ),
  })
  .openapi("BulkResolveRequest", { description: "Other members are ignored." });

const BulkItem = z
  .object({
    domain: z.string().describe("The input string as sent."),
    status: z.number().int().describe("The status `GET /resolve/<domain>` answers for it now."),
    s: z.enum(["ok", "error"]),
    result: z.union([PublicKey, z.string()]).describe("The key, or the error message, of that GET answer."),
    slot: z
      .number()
      .int()
      .optional()
      .describe(
        "The lowest `context.slot` of the reads its answer came from (as `X-Context-Slot` of its GET); " +
          "absent for a name that read nothing (refused as input, or failed before any read).",
      ),
  })
  .strict()
  .openapi("BulkResolveItem");

/** What one name answers: the status, `s` and `result` of its GET. */
interface Item {
  readonly domain: string;
  readonly status: number;
  readonly s: "ok" | "error";
  readonly result: string;
  /** The lowest context slot of the reads its answer came from; absent when it read nothing. */
  slot?: number;
}

/** The GET route's own check of `:domain`: the same normalization and the same errors, in the same order. */
const checkDomain = plainCheckOf(fullDomainParam) as (raw: string) => FullDomain;

const item = (domain: string, key: Address): Item => ({ domain, status: 200, s: "ok", result: key });

/**
 * `POST /resolve` and `POST /safe-resolve`: up to 1,000 names in one
 * request, each item exactly what the GET route answers for that name on
 * the same chain state, one bad name never failing the others. The names
 * go to the resolver together (`Resolver.resolveAll`), so their reads are
 * batched into `getMultipleAccounts` calls of 100 keys sent in parallel.
 */
export function resolveBulkRoutes(deps: AppDeps): OpenAPIHono<AppEnv> {
  const routes = new OpenAPIHono<AppEnv>();
  documentedPost(
    routes,
    {
      paths: ["/resolve", "/safe-resolve"],
      tag: "Resolution",
      summary: "Up to 1,000 domains in one request",
      description:
        "One item per input, in input order: `status`, `s` and `result` are what `GET /resolve/<domain>` " +
        "(or `/safe-resolve/…`) answers for it on the same chain state. The request itself fails only for " +
        "its body (size first, then JSON and shape) or its `rpc` parameter. Never cached (`no-store`).",
      body: BulkBody,
      maxBodyBytes: MAX_BULK_BODY_BYTES,
      concurrency: BULK_CONCURRENCY,
      line: BULK_LINE,
      maxWaitMs: deps.bulkWaitMs,
      clientOf: clientOf(deps),
      ...(deps.workLeaseMs !== undefined && { placeLeaseMs: deps.workLeaseMs }),
      rpc: true,
      cache: "none",
      result: z.array(BulkItem),
      errors: { 400: ["Invalid input"], 503: ["Service overloaded"] },
      examples: {
        mix: {
          summary: "A tokenized domain, a V2 SOL record, a legacy .sol name, a missing one and an unsupported TLD",
          requestBody: { domains: ["bonfida.sns", "v2-sol.sns", "plain.sol", "nobody.sns", "bonfida.com"] },
          status: 200,
          body: {
            s: "ok",
            result: [
              {
                domain: "bonfida.sns",
                status: 200,
                s: "ok",
                result: "Hbn1ZdzThM2Hhd4V79imRRHFBsnjzskG6j9GZto8fSs7",
                slot: 300_000_000,
              },
              {
                domain: "v2-sol.sns",
                status: 200,
                s: "ok",
                result: "F56ChgeNWwCq9bDW5RE6UH8CXJ3se3mi8mSpcAvECsww",
                slot: 300_000_000,
              },
              {
                domain: "plain.sol",
                status: 200,
                s: "ok",
                result: "C8jwKc5ieVM1yzMqMsW7ShJyTnN2GbLaf8XV2s4hthRS",
                slot: 300_000_000,
              },
              { domain: "nobody.sns", status: 404, s: "error", result: "Domain not found", slot: 300_000_000 },
              { domain: "bonfida.com", status: 400, s: "error", result: "Unsupported TLD" },
            ],
          },
        },
        "invalid-input": {
          summary: "No names: `domains` must list 1 to 1,000 strings",
          requestBody: { domains: [] },
          status: 400,
          body: { s: "error", result: "Invalid input" },
        },
      },
    },
    async (c, { body, path }) => {
      const { items, distinct } = await resolveItems(c, deps, body.domains, path === "/safe-resolve");
      tally(c, deps, path, items, distinct);
      return ok(c, items);
    },
  );
  return routes;
}

/**
 * The items of `raws`, each name resolved once however often it is repeated,
 * through the GET route's entry (`safe`: `/safe-resolve`'s, `Resolver.safeResolve`).
 */
async function resolveItems(
  c: Context<AppEnv>,
  deps: AppDeps,
  raws: readonly string[],
  safe: boolean,
): Promise<{ items: Item[]; distinct: number }> {
  const items: (Item | number)[] = [];
  const distinct = new Map<string, number>();
  const domains: FullDomain[] = [];
  for (const raw of raws) {
    let domain: FullDomain;
    try {
      domain = checkDomain(raw);
    } catch (error) {
      items.push(failedItem(raw, error));
      c.get("trace")?.step(raw, "validation", `refused: ${(error as Error).message}`);
      continue;
    }
    const id = `${domain.name}${domain.tld}`;
    let at = distinct.get(id);
    if (at === undefined) {
      distinct.set(id, (at = domains.length));
      domains.push(domain);
    }
    items.push(at);
  }
  // A GET's budget of JSON-RPC calls per 100 names (1,000 names: 10 times RPC_BUDGET_CALLS, or RPC_OVERRIDE_BUDGET_CALLS).
  c.set("budgetCallsScale", Math.max(1, Math.ceil(domains.length / NAMES_PER_BUDGET)));
  // After the body, as upstream checks `rpc` after the path: a refused override fails the request.
  const endpoint = c.get("rpc")();
  const settled: Settled[] = await deps.resolver.resolveAll(endpoint, domains, safe);
  logFirstFault(c, deps, settled);
  const slots = slotsOf(endpoint, settled);
  let lowest = Infinity;
  const answered = items.map((entry, i) => {
    if (typeof entry !== "number") return entry;
    const outcome = settled[entry]!;
    const answer = outcome.ok ? item(raws[i]!, outcome.key) : failedItem(raws[i]!, outcome.error);
    const slot = slots[entry]!;
    if (slot !== Infinity) {
      answer.slot = slot;
      if (slot < lowest) lowest = slot;
    }
    return answer;
  });
  // The answer's X-Context-Slot: the lowest of its items' (none when no item read the chain).
  c.set("answerSlot", lowest);
  return { items: answered, distinct: domains.length };
}

/**
 * The slot each name's answer was read at (Infinity: it read nothing): a key
 * or a protocol answer (a missing domain, a malformed record) came from the
 * chain; an RPC fault did not. The resolve cache's entry says when it was
 * read, as it was when the name settled (`Settled.slot`); without one, the
 * lowest slot the request read.
 */
function slotsOf(endpoint: RpcEndpoint, settled: readonly Settled[]): number[] {
  const own = endpoint.budget?.lowestSlot ?? Infinity;
  return settled.map((outcome) => {
    if (!outcome.ok && !(outcome.error instanceof SnsError)) return Infinity;
    return outcome.slot ?? own;
  });
}

function failedItem(domain: string, error: unknown): Item {
  const { status, message } = classify(error);
  return { domain, status, s: "error", result: message };
}

/**
 * A GET answering 5xx for a failure of the gateway or its RPC writes a
 * warn line with the error; a bulk request writes one, for its first such
 * item, with how many there were.
 */
function logFirstFault(c: Context<AppEnv>, deps: AppDeps, settled: readonly Settled[]): void {
  let first: unknown;
  let faults = 0;
  for (const outcome of settled) {
    if (outcome.ok || !classify(outcome.error).logged) continue;
    first ??= outcome.error;
    faults++;
  }
  if (faults === 0) return;
  deps.logger.warn({ reqId: c.get("requestId"), route: routePatternOf(c), faults, err: first }, "bulk items failed");
}

/** Names and items by status for the request's log line; names for the metrics. */
function tally(c: Context<AppEnv>, deps: AppDeps, route: string, items: readonly Item[], distinct: number): void {
  const byStatus: Record<string, number> = {};
  for (const { status } of items) byStatus[status] = (byStatus[status] ?? 0) + 1;
  const bulk: BulkTally = {
    names: items.length,
    distinct,
    items: byStatus,
    jsonRpcCalls: c.get("rpcBudget")?.used.calls ?? 0,
  };
  c.set("bulk", bulk);
  deps.telemetry?.bulkResolved(route, items.length);
}
