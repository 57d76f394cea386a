import { OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppDeps } from "../deps.js";
import type { AppEnv } from "../env.js";
import { plain } from "../answer/plain.js";
import { plainGet } from "../openapi/documented-route.js";

const Report = z
  .object({
    ready: z.boolean(),
    reasons: z.array(z.string()).optional().describe("Why it is not ready (503 only)."),
    rpc: z.object({
      tipSlot: z.number().int().nullable().describe("The slot RPC_URL answered now (confirmed); null when none did."),
      error: z
        .string()
        .optional()
        .describe(
          "What kind of fault kept the tip from being read (network, timeout, rate_limited, http_5xx, http_status, " +
            "invalid_response, node_condition, jsonrpc, too_large, budget, not_configured, unknown); never its text.",
        ),
      endpoints: z.array(
        z.object({
          host: z.string().describe("The endpoint's host, never its URL."),
          circuit: z.enum(["closed", "open", "half_open", "none"]).describe("`none`: a single endpoint, no circuit."),
          lastFault: z.object({ kind: z.string(), at: z.string() }).nullable(),
        }),
      ),
    }),
    index: z
      .union([
        z.object({
          state: z.enum(["idle", "building", "ready", "failed", "over_budget"]),
          lagSlots: z.number().int().nullable(),
          lagSeconds: z.number().nullable().describe("lagSlots at a nominal 400 ms a slot."),
          records: z.number().int(),
          maxLagSlots: z.number().int().describe("READY_MAX_INDEX_LAG_SLOTS."),
        }),
        z.object({ state: z.literal("elsewhere").describe("Kept outside this isolate (Workers: a Durable Object).") }),
      ])
      .nullable()
      .describe("The tokenized-domain index; null when off."),
    sol: z.object({
      paused: z.boolean().describe("Legacy `.sol` resolution has reached its cutoff."),
      decidedAtSlot: z.number().int().nullable().describe("The finalized slot that was decided at; null until read."),
      srs: z.boolean().describe("SOL_SRS_RESOLUTION."),
    }),
    version: z.object({
      package: z.string(),
      commit: z.string().nullable().describe("GIT_COMMIT of the environment, when set."),
    }),
  })
  .openapi("Readiness");

/**
 * `GET /ready`: readiness (src/service/readiness.ts), 200 or 503, both with
 * the report as JSON (outside the envelope, never cached). `/health` stays
 * liveness: the process answers.
 */
export function readyRoute(deps: AppDeps): OpenAPIHono<AppEnv> {
  const routes = new OpenAPIHono<AppEnv>();
  const json = { "application/json": { schema: Report } };
  routes.openAPIRegistry.registerPath({
    method: "get",
    path: "/ready",
    operationId: "ready",
    tags: ["Service"],
    summary: "Readiness: an RPC endpoint answers and the tokenized index is near the tip",
    description:
      "200 when `RPC_URL` answers its tip slot now (at least one endpoint in rotation) and, where this process " +
      "keeps a tokenized index that is answering, it is within `READY_MAX_INDEX_LAG_SLOTS` of the tip; 503 " +
      "otherwise. Both carry the report. Each call also starts the index's catch-up to the tip (it never fails the index).",
    responses: {
      200: { description: "Ready", content: json },
      503: { description: "Not ready", content: json },
    },
  });
  plainGet(routes, "/ready", "none", async (c) => {
    const report = await deps.readiness();
    return plain(c, JSON.stringify(report), "application/json", { status: report.ready ? 200 : 503 });
  });
  return routes;
}
