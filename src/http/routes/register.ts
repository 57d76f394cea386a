import { OpenAPIHono } from "@hono/zod-openapi";
import { RpcNotConfiguredError } from "../../rpc/errors.js";
import type { RpcEndpoint } from "../../rpc/endpoint.js";
import { USDC_MINT } from "../../sns/instructions/payment-mints.js";
import { MAX_DOMAIN_SPACE, registerInstructions } from "../../sns/instructions/register-v2.js";
import { transactionAnswer } from "../../sns/transaction/answer.js";
import type { AppEnv } from "../env.js";
import { ok } from "../answer/envelope.js";
import { documentedGet } from "../openapi/documented-route.js";
import { pubkeyQueryParam, serializeQueryParam, spaceQueryParam, tldLessName } from "../openapi/request-schemas.js";
import { TransactionResult } from "../openapi/response-schemas.js";
import { REGISTER_EXAMPLES } from "./register-examples.js";

/** The instructions (or unsigned transaction) registering `domain`.sns, for a wallet to sign and send. */
export function registerRoute(): OpenAPIHono<AppEnv> {
  const routes = new OpenAPIHono<AppEnv>();
  documentedGet(
    routes,
    {
      paths: ["/register"],
      tag: "Transactions",
      summary: "Instructions registering a .sns name",
      description:
        "The buyer pays from its associated token account of `mint` (USDC when absent; one of the 11 mints with a Pyth " +
        "price feed, any other is `400`). A known `referrer` adds, first, the idempotent creation of its token account; " +
        "any other referrer is ignored. Without `serialize` no RPC is read (none need be configured); with " +
        "`serialize=true` the answer embeds a blockhash read from the RPC. Never cached.",
      params: {},
      query: {
        buyer: pubkeyQueryParam.openapi({ description: "Pays, signs and owns the name; base58, not trimmed." }),
        domain: tldLessName([1]).openapi({
          description: "The name to register: one label, no TLD; trimmed and lowercased.",
          example: "example",
        }),
        space: spaceQueryParam(MAX_DOMAIN_SPACE),
        serialize: serializeQueryParam,
        referrer: pubkeyQueryParam
          .openapi({ description: "A referrer of the registrar's table gets its share; any other key is ignored." })
          .optional(),
        mint: pubkeyQueryParam
          .openapi({ description: "The payment mint (default USDC); one of the 11 with a Pyth price feed." })
          .optional(),
      },
      firstQueryValues: true,
      rpc: true,
      cache: "none",
      result: TransactionResult,
      errors: { 400: ["Invalid input"] },
      examples: REGISTER_EXAMPLES,
    },
    async (c, { query }) => {
      // `rpc` is checked even when nothing is read, as upstream does; only the
      // serialized answer needs an endpoint configured.
      let endpoint: RpcEndpoint | undefined;
      try {
        endpoint = c.get("rpc")();
      } catch (error) {
        if (query.serialize || !(error instanceof RpcNotConfiguredError)) throw error;
      }
      const instructions = registerInstructions({
        label: query.domain,
        space: query.space,
        buyer: query.buyer,
        mint: query.mint ?? USDC_MINT,
        ...(query.referrer === undefined ? {} : { referrer: query.referrer }),
      });
      const blockhash = query.serialize ? (await endpoint!.getLatestBlockhash()).blockhash : undefined;
      return ok(c, transactionAnswer(query.buyer, instructions, blockhash));
    },
  );
  return routes;
}
