import { type OpenAPIHono, z } from "@hono/zod-openapi";
import { RpcNotConfiguredError } from "../../../rpc/errors.js";
import type { RpcEndpoint } from "../../../rpc/endpoint.js";
import { SnsError } from "../../../sns/errors.js";
import type { Instruction } from "../../../sns/instructions/instruction.js";
import { USDC_MINT } from "../../../sns/instructions/payment-mints.js";
import { MAX_DOMAIN_SPACE, registerInstructions } from "../../../sns/instructions/register-v2.js";
import { legacyTransactionAnswer } from "../../../sns/transaction/legacy-answer.js";
import type { AppEnv } from "../../env.js";
import { fail, ok } from "../../answer/envelope.js";
import { pubkeyQueryParam, serializeQueryParam, spaceQueryParam, tldLessName } from "../../openapi/request-schemas.js";
import { INTERNAL_ERROR, legacyGet, legacyRoutes } from "./legacy-route.js";

/** v1's parameters of `/register` (first value of a repeated key; unknown keys ignored). */
const RegisterQuery = z.object({
  buyer: pubkeyQueryParam,
  domain: tldLessName([1]),
  space: spaceQueryParam(MAX_DOMAIN_SPACE),
  serialize: serializeQueryParam,
  referrer: pubkeyQueryParam.optional(),
  mint: pubkeyQueryParam.optional(),
});

/**
 * `/register`, working again (the retired hosts refused every request from 2024-01 on): v1's parameters and
 * instruction bytes, written as the clients of the retired hosts read them: instruction `data` in URL-safe
 * base64 (padded), and with `serialize=true` the unsigned transaction as Buffer JSON, as `/create-sub` answers.
 * A parameter refused (a payment mint without a price feed included) is 400 `Invalid input`; anything else 500 `Internal error` (an RPC that cannot answer:
 * 502).
 */
export function legacyRegisterRoute(): OpenAPIHono<AppEnv> {
  const routes = legacyRoutes();
  legacyGet(routes, "/register", { rpc: true, fixedFailure: INTERNAL_ERROR }, async (c) => {
    const parsed = RegisterQuery.safeParse(c.req.query());
    if (!parsed.success) return fail(c, 400, "Invalid input");
    const query = parsed.data;
    let endpoint: RpcEndpoint | undefined;
    try {
      endpoint = c.get("rpc")();
    } catch (error) {
      // Without `serialize` nothing is read: no RPC need be configured.
      if (query.serialize || !(error instanceof RpcNotConfiguredError)) throw error;
    }
    let instructions: Instruction[];
    try {
      instructions = registerInstructions({
        label: query.domain,
        space: query.space,
        buyer: query.buyer,
        mint: query.mint ?? USDC_MINT,
        ...(query.referrer === undefined ? {} : { referrer: query.referrer }),
      });
    } catch (error) {
      // A payment mint without a price feed is refused as v1 refuses it.
      if (error instanceof SnsError && error.code === "INVALID_INPUT") return fail(c, 400, "Invalid input");
      throw error;
    }
    const blockhash = query.serialize ? (await endpoint!.getLatestBlockhash()).blockhash : undefined;
    return ok(c, legacyTransactionAnswer(query.buyer, instructions, blockhash, "base64url"));
  });
  return routes;
}
