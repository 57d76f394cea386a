import { type OpenAPIHono, z } from "@hono/zod-openapi";
import { deriveDomainKey } from "../../../sns/derive.js";
import { SnsError } from "../../../sns/errors.js";
import { transferNameInstruction } from "../../../sns/instructions/transfer.js";
import { draftCreateSubdomain } from "../../../sns/queries/create-subdomain.js";
import { openLegacyName } from "../../../sns/queries/legacy-names.js";
import { legacyTransactionAnswer } from "../../../sns/transaction/legacy-answer.js";
import type { AppDeps } from "../../deps.js";
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
 * `finalOwner` appends the name program's transfer of the new subdomain from `owner` to it, as the retired
 * hosts did.
 */
export function legacyCreateSubRoute(deps: AppDeps): OpenAPIHono<AppEnv> {
  const routes = legacyRoutes();
  legacyGet(routes, "/create-sub", { rpc: true, fixedFailure: INTERNAL_ERROR }, async (c) => {
    const parsed = CreateSubQuery.safeParse(c.req.query());
    if (!parsed.success) return fail(c, 400, "Invalid input");
    const query = parsed.data;
    const endpoint = c.get("rpc")();
    const domain = await openLegacyName(endpoint, query.subdomain, deps.resolver.srsResolution);
    if (domain.labels.length !== 2) throw new SnsError("INVALID_INPUT", "not a subdomain");
    const draft = await draftCreateSubdomain(endpoint, domain.name, query.owner, query.serialize);
    const instructions =
      query.finalOwner === undefined
        ? draft.instructions
        : [...draft.instructions, transferNameInstruction(deriveDomainKey(domain.name), query.finalOwner, query.owner)];
    return ok(c, legacyTransactionAnswer(query.owner, instructions, draft.blockhash, "base64"));
  });
  return routes;
}
