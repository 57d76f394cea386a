import type { Context } from "hono";
import { RpcEndpointRefusedError, RpcNotConfiguredError } from "../../rpc/errors.js";
import type { RequestTrace } from "../../rpc/request-trace.js";
import { SnsError } from "../../sns/errors.js";
import type { AppEnv } from "../env.js";
import { BodyTooLargeError, InvalidInputError } from "../errors.js";
import { classify } from "./classify.js";

/**
 * How the request was taken, in words: `accepted` once it reached its
 * endpoint, or the rule its input broke. Only messages the gateway wrote
 * itself are quoted (they name a rule, never the `rpc` URL: an override's
 * refusal says which rule, address-policy.ts); anything else is named by
 * its public message.
 */
function validationWords(error: Error | undefined, reachedEndpoint: boolean): string {
  if (error === undefined) return "accepted";
  if (error instanceof RpcEndpointRefusedError) return `refused: ${error.message}`;
  if (reachedEndpoint) return "accepted";
  if (
    error instanceof SnsError ||
    error instanceof InvalidInputError ||
    error instanceof RpcNotConfiguredError ||
    error instanceof BodyTooLargeError
  ) {
    return `refused: ${error.message.slice(0, 200)}`;
  }
  return `refused: ${classify(error).message}`;
}

/**
 * `body` (an envelope, `{"s":…,"result":…}`) with the request's trace beside
 * `s` and `result` (rpc/request-trace.ts). Called only for a request that
 * asked (`trace=1`): every other body is written as it is.
 */
export function tracedBody(c: Context<AppEnv>, body: string, trace: RequestTrace): string {
  // Envelopes only (envelope.ts writes `s` first): the OpenAPI document and the docs page stay as they are.
  if (!body.startsWith('{"s":') || !body.endsWith("}")) return body;
  const budget = c.get("rpcBudget");
  const rendered = trace.render(
    {
      validation: validationWords(c.error, budget !== undefined),
      cache: c.get("answerCache") ?? "none",
      ageSeconds: c.get("answerAge"),
    },
    budget,
  );
  return `${body.slice(0, -1)},"trace":${JSON.stringify(rendered)}}`;
}
