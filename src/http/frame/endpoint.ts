import type { Context } from "hono";
import type { RpcEndpoint } from "../../rpc/endpoint.js";
import type { EndpointSelector } from "../../rpc/endpoints.js";
import type { AppEnv } from "../env.js";
import { InvalidInputError } from "../errors.js";
import { rpcQueryParam } from "../openapi/request-schemas.js";
import { RequestBudget } from "../../rpc/request-budget.js";
import type { RequestTrace } from "../../rpc/request-trace.js";
import { type YieldToLoop, requestView } from "../../rpc/request-view.js";

/**
 * The `rpc` query parameter (`raw`, as `c.req.query("rpc")` reads it): an
 * endpoint override for this request only. Absent or empty means "use
 * RPC_URL". Its URL policy is applied when the endpoint is selected, after
 * path validation, as upstream does.
 */
export function rpcOverride(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const parsed = rpcQueryParam.safeParse(raw);
  if (!parsed.success) throw new InvalidInputError("rpc parameter too long");
  return parsed.data;
}

/** Whether a request named an override at all (`rpc=%20` counts, as upstream). */
export const namesOverride = (raw: string | undefined): boolean => (raw ?? "") !== "";

/**
 * Offers routes `c.get("rpc")()`: the endpoint for this request, chosen once
 * and only when first asked for, so a route validates its path before the
 * `rpc` parameter (`raw`) is looked at, as upstream does. What the request
 * reads through it is counted in `rpcUsage`, for the request log, and paid
 * from its budget (`rpcBudget`: the endpoint's limits, drawing on the
 * client's allowance when the override rate limit gave one). (Variables are
 * read with `c.get`: each read of `c.var` copies all of them into a new
 * object.)
 */
export function offerEndpoint(
  c: Context<AppEnv>,
  endpoints: EndpointSelector,
  raw: string | undefined,
  yieldToLoop: YieldToLoop,
  trace?: RequestTrace,
): void {
  let chosen: RpcEndpoint | undefined;
  c.set("rpc", () => {
    if (chosen) return chosen;
    const usage = { calls: 0, accounts: 0 };
    const endpoint = endpoints.select(rpcOverride(raw));
    const scale = c.get("budgetCallsScale") ?? 1;
    const limits =
      scale === 1
        ? endpoint.budgetLimits
        : { ...endpoint.budgetLimits, maxCalls: endpoint.budgetLimits.maxCalls * scale };
    const budget = new RequestBudget(limits, c.get("costAllowance"));
    if (trace) {
      budget.trace = trace;
      const override = rpcOverride(raw);
      trace.endpointChosen(
        override === undefined || endpoints.namesConfigured(override) ? "configured" : "override",
        endpoint.url,
      );
    }
    chosen = requestView(endpoint, usage, budget, yieldToLoop);
    c.set("rpcUsage", usage);
    c.set("rpcBudget", budget);
    return chosen;
  });
}
