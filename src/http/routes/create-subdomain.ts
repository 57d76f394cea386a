import { OpenAPIHono } from "@hono/zod-openapi";
import { draftCreateSubdomain } from "../../sns/queries/create-subdomain.js";
import { transactionAnswer } from "../../sns/transaction/answer.js";
import type { AppEnv } from "../env.js";
import { ok } from "../answer/envelope.js";
import { documentedGet } from "../openapi/documented-route.js";
import { pubkeyQueryParam, serializeQueryParam, tldLessName } from "../openapi/request-schemas.js";
import { TransactionResult } from "../openapi/response-schemas.js";
import { CREATE_SUBDOMAIN_EXAMPLES } from "./create-subdomain-examples.js";

/** The instructions (or unsigned transaction) creating `sub.parent`, for the parent's owner to sign and send. */
export function createSubdomainRoute(): OpenAPIHono<AppEnv> {
  const routes = new OpenAPIHono<AppEnv>();
  documentedGet(
    routes,
    {
      paths: ["/create-subdomain"],
      tag: "Transactions",
      summary: "Instructions creating a subdomain",
      description:
        "Creates `sub.parent` owned and paid by `owner` (no data bytes), funded with the rent-exempt minimum, then its " +
        "reverse-lookup account unless it exists. The parent's registry owner must sign too: a second signature " +
        "when it is not `owner`. The parent, the reverse account, the rent minimum and (with `serialize=true`) a " +
        "blockhash are read in one JSON-RPC batch; any RPC failure is `502`. Never cached.",
      params: {},
      query: {
        owner: pubkeyQueryParam.openapi({ description: "Owns and pays for the subdomain; base58, not trimmed." }),
        subdomain: tldLessName([2]).openapi({
          description: "`sub.parent`: two labels, no TLD; trimmed and lowercased.",
          example: "team.plain",
        }),
        serialize: serializeQueryParam,
      },
      firstQueryValues: true,
      rpc: true,
      cache: "none",
      result: TransactionResult,
      errors: { 400: ["Invalid input"], 404: ["Domain not found"], 422: ["Record is malformed"] },
      examples: CREATE_SUBDOMAIN_EXAMPLES,
    },
    async (c, { query }) => {
      const draft = await draftCreateSubdomain(c.get("rpc")(), query.subdomain, query.owner, query.serialize);
      return ok(c, transactionAnswer(query.owner, draft.instructions, draft.blockhash));
    },
  );
  return routes;
}
