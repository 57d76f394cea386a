import { SOL_TLD, SOL_TLD_CUTOFF_SLOT } from "../sns/constants.js";
import type { FullDomain } from "../sns/domain.js";
import { type HolderHints, tldGate } from "../sns/queries/resolve.js";
import type { RpcEndpoint } from "../rpc/endpoint.js";
import type { RequestTrace } from "../rpc/request-trace.js";

/**
 * `tldGate` for a traced request (`?trace=1`): the same decision, and the
 * `.sol` cutoff step with the finalized slot it was decided at (the
 * endpoint's cutoff state, rpc/sol-cutoff-gate.ts).
 */
export function tracedTldGate(
  endpoint: RpcEndpoint,
  domain: FullDomain,
  trace: RequestTrace,
): Promise<void> | undefined {
  if (domain.tld !== SOL_TLD) return undefined;
  const told = () => {
    const { reached, slot } = endpoint.solCutoff;
    const compared = slot === undefined ? "no finalized slot read" : `finalized slot ${slot}`;
    trace.step(
      `${domain.name}${SOL_TLD}`,
      ".sol cutoff",
      reached
        ? `reached (${compared} ≥ cutoff ${SOL_TLD_CUTOFF_SLOT}): Unsupported TLD`
        : `not reached (${compared} < cutoff ${SOL_TLD_CUTOFF_SLOT}): resolved as the .sns name`,
    );
  };
  let gate: Promise<void> | undefined;
  try {
    gate = tldGate(endpoint, domain);
  } catch (error) {
    told();
    throw error;
  }
  if (!gate) {
    told();
    return undefined;
  }
  trace.cutoffRead(endpoint.url);
  return gate.then(told, (error: unknown) => {
    told();
    throw error;
  });
}

/**
 * A traced resolution's view of the holder hints: it reads them (and says
 * so) but changes none, so a traced request leaves every later untraced
 * answer as it would have been.
 */
export function readOnlyHints(hints: HolderHints): HolderHints {
  const holders = hints.holders;
  return {
    get: (domainKey) => hints.get(domainKey),
    set: () => undefined,
    delete: () => undefined,
    ...(holders && {
      holders: { get: (domainKey) => holders.get(domainKey), set: () => undefined, delete: () => undefined },
    }),
  };
}
