import type { Address } from "@solana/kit";
import type { FullDomain } from "../sns/domain.js";
import { deriveResolutionKeys, tldGate } from "../sns/queries/resolve.js";
import type { RpcEndpoint } from "../rpc/endpoint.js";
import { gatheredReads } from "../rpc/gathered-reads.js";

/** Longest a bulk derivation slice holds the event loop. */
const DERIVE_SLICE_MS = 8;

/** The default way to let other work run between derivation slices: a zero-delay timer. */
export const yieldByTimer = (): Promise<void> => new Promise((resume) => setTimeout(resume, 0));

/** How a resolution of `resolveAll` ended: its key, or what the GET route's call would have thrown. */
export type Settled = { readonly ok: true; readonly key: Address } | { readonly ok: false; readonly error: unknown };

/** What bulk resolution asks of the resolver (src/service/resolver.ts). */
export interface BulkResolvable {
  /** Whether `domain` is resolved through its SRS record (and cross-checked by `safeResolve`). */
  readsSrs(domain: FullDomain): boolean;
  safeResolve(endpoint: RpcEndpoint, domain: FullDomain): Address | Promise<Address>;
  /** `resolve` without its TLD gate: the registry's answer, cached, shared or new. */
  resolvePastGate(endpoint: RpcEndpoint, domain: FullDomain): Address | Promise<Address>;
}

/**
 * `resolve` (or, `safe`, `safeResolve`) for many names at once, with the
 * same answer for each: every name's first reads are requested in this
 * one call, so the batching loader sends them together. A `.sol` name
 * waiting for the cutoff slot is resolved alongside that read instead of
 * after it (its accounts are the `.sns` name's, so nothing is read that
 * the answer could not need), and the gate still decides first: past the
 * cutoff, `Unsupported TLD` whatever the resolution found. Reads that
 * follow up on others wait until none of this call's reads is in flight
 * (rpc/gathered-reads.ts), so they too fill calls of 100 keys. Settled
 * outcomes, in `domains` order; a failure is what the GET route's call
 * would have thrown.
 */
export async function resolveAll(
  resolver: BulkResolvable,
  endpoint: RpcEndpoint,
  domains: readonly FullDomain[],
  safe: boolean,
  yieldTurn: () => Promise<void>,
): Promise<Settled[]> {
  await deriveInSlices(domains, yieldTurn);
  // Follow-up reads (NFT holders' token accounts, PDA owners) leave together, in full getMultipleAccounts calls.
  const chain = gatheredReads(endpoint, yieldTurn);
  return Promise.all(
    domains.map((domain) =>
      settle(() =>
        safe && resolver.readsSrs(domain)
          ? resolver.safeResolve(chain, domain)
          : resolveReadingAhead(resolver, chain, domain),
      ),
    ),
  );
}

/**
 * Derives the names' account keys into the derivation memo a slice of
 * time at a time, yielding to other requests in between: a new name costs
 * up to a millisecond of curve arithmetic, and a thousand at once would
 * hold the event loop for a second. The reads that follow then find every
 * key derived and are all requested within one turn.
 */
async function deriveInSlices(domains: readonly FullDomain[], yieldTurn: () => Promise<void>): Promise<void> {
  let sliceStart = performance.now();
  for (const domain of domains) {
    deriveResolutionKeys(domain.name);
    if (performance.now() - sliceStart >= DERIVE_SLICE_MS) {
      await yieldTurn();
      sliceStart = performance.now();
    }
  }
}

/** `resolve`, with a gated name's resolution started alongside its slot read. */
function resolveReadingAhead(
  resolver: BulkResolvable,
  endpoint: RpcEndpoint,
  domain: FullDomain,
): Address | Promise<Address> {
  if (resolver.readsSrs(domain)) return resolver.resolvePastGate(endpoint, domain);
  const gate = tldGate(endpoint, domain);
  if (!gate) return resolver.resolvePastGate(endpoint, domain);
  const early = settle(() => resolver.resolvePastGate(endpoint, domain));
  return gate.then(() => early.then(unsettle));
}

/** The outcome of `run`, whether it answers at once, throws, or settles later; never rejects. */
function settle(run: () => Address | Promise<Address>): Promise<Settled> {
  try {
    const answer = run();
    if (typeof answer === "string") return Promise.resolve({ ok: true, key: answer });
    return answer.then(
      (key): Settled => ({ ok: true, key }),
      (error: unknown): Settled => ({ ok: false, error }),
    );
  } catch (error) {
    return Promise.resolve({ ok: false, error });
  }
}

function unsettle(settled: Settled): Address {
  if (settled.ok) return settled.key;
  throw settled.error;
}
