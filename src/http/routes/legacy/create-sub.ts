import { type OpenAPIHono, z } from "@hono/zod-openapi";
import { SnsError } from "../../../sns/errors.js";
import { draftCreateSubdomain } from "../../../sns/queries/create-subdomain.js";
import { openLegacyName } from "../../../sns/queries/legacy-names.js";
import { legacyTransactionAnswer } from "../../../sns/transaction/legacy-answer.js";
import type { AppEnv } from "../../env.js";
import { fail, ok } from "../../answer/envelope.js";
import { pubkeyQueryParam, serializeQueryParam } from "../../openapi/request-schemas.js";
import { INTERNAL_ERROR, legacyGet, legacyRoutes } from "./legacy-route.js";

/** The retired hosts' parameters of `/create-sub`; `subdomain` is a name of the legacy profile, not trimmed. */
const CreateSubQuery = z.object({
  owner: pubkeyQueryParam,
  subdomain: z.string(),
  serialize: serializeQueryParam,
  finalOwner: pubkeyQueryParam.optional(),
});

/**
 * `/create-sub?owner&subdomain[&serialize]`: the instructions of v1's `/create-subdomain` (standard base64
 * `data`, as the retired hosts wrote it), or with `serialize=true` the unsigned transaction as Buffer JSON.
 * `subdomain` must name a subdomain (`sub.parent`, `.sns` or `.sol` suffix allowed, `.sol` only before the
 * cutoff); a one-label value, which the retired hosts turned into a parentless create, is refused (500).
 * `finalOwner` (a transfer after the creation) is not built: a request naming one is 500 rather than a
 * transaction that leaves the subdomain with another owner than the one asked for.
 */
export function legacyCreateSubRoute(): OpenAPIHono<AppEnv> {
  const routes = legacyRoutes();
  legacyGet(routes, "/create-sub", { rpc: true, fixedFailure: INTERNAL_ERROR }, async (c) => {
    const parsed = CreateSubQuery.safeParse(c.req.query());
    if (!parsed.success) return fail(c, 400, "Invalid input");
    const query = parsed.data;
    if (query.finalOwner !== undefined) throw new SnsError("INVALID_INPUT", "finalOwner is not supported");
    const endpoint = c.get("rpc")();
    const domain = await openLegacyName(endpoint, query.subdomain);
    if (domain.labels.length !== 2) throw new SnsError("INVALID_INPUT", "not a subdomain");
    const draft = await draftCreateSubdomain(endpoint, domain.name, query.owner, query.serialize);
    return ok(c, legacyTransactionAnswer(query.owner, draft.instructions, draft.blockhash, "base64"));
  });
  return routes;
}
