import type { Address } from "@solana/kit";
import type { FullDomain } from "../sns/domain.js";
import { SnsError } from "../sns/errors.js";
import { deriveResolutionKeys, tldGate } from "../sns/queries/resolve.js";
import type { RpcEndpoint } from "../rpc/endpoint.js";
import { gatheredReads } from "../rpc/gathered-reads.js";
import { mapInTimeSlices } from "../rpc/time-slices.js";
import type { CacheEntry } from "./answer-cache.js";
import { tracedTldGate } from "./traced-resolution.js";

/**
 * From this many names on, their registry accounts are read as their
 * headers (ChainReader.getAccountHeads), in calls of 100 heads of their own:
 * at most one call more than reading them whole among the rest
 * (⌈n / 100⌉ + ⌈3n / 100⌉ ≤ ⌈4n / 100⌉ + 1), while the 1 KB or more a
 * registered domain carries past its header is neither sent nor decoded.
 * Fewer names would pay the extra call for little.
 */
export const HEADS_FROM_NAMES = 100;

/** The default way to let other work run between a bulk request's slices of work: a zero-delay timer. */
export const yieldByTimer = (): Promise<void> => new Promise((resume) => setTimeout(resume, 0));

/**
 * How a resolution of `resolveAll` ended: its key, or what the GET route's call would have thrown; with
 * the slot of the cache entry it was answered from or kept in, taken when it settled (a refresh ahead of
 * expiry may replace that entry with a newer one before the whole request is answered). No slot: none was.
 */
export type Settled =
  | { readonly ok: true; readonly key: Address; readonly slot?: number }
  | { readonly ok: false; readonly error: unknown; readonly slot?: number };

/** What bulk resolution asks of the resolver (src/service/resolver.ts). */
export interface BulkResolvable {
  /** Whether `domain` is resolved through its SRS record (and cross-checked by `safeResolve`). */
  readsSrs(domain: FullDomain): boolean;
  safeResolve(endpoint: RpcEndpoint, domain: FullDomain): Address | Promise<Address>;
  /** `resolve` without its TLD gate: the registry's answer, cached, shared or new. */
  resolvePastGate(endpoint: RpcEndpoint, domain: FullDomain): Address | Promise<Address>;
  /** The cache entry an answer given at once came from (Resolver.lastHit). */
  readonly lastHit: CacheEntry | undefined;
  /** The cache entry holding the answer just given for `domain`, counting nothing (Resolver.answerEntry). */
  answerEntry(endpoint: RpcEndpoint, domain: FullDomain): CacheEntry | undefined;
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
 *
 * A thousand names would hold the event loop for tens of milliseconds or
 * more in each phase, so each is spread over turns (rpc/time-slices.ts),
 * other requests served in between: the derivations (a new name costs up
 * to a millisecond of curve arithmetic), the resolutions' starts (their
 * first reads held until every name has asked for its own, then sent
 * together as before), and the hand-over of settled reads to the
 * resolutions (rpc/gathered-reads.ts).
 */
export async function resolveAll(
  resolver: BulkResolvable,
  endpoint: RpcEndpoint,
  domains: readonly FullDomain[],
  safe: boolean,
  yieldTurn: () => Promise<void>,
): Promise<Settled[]> {
  // Only the memo keeps the keys (outside the heap): a thousand names' keys held here across turns were
  // copied by each young-generation collection until the derivations ended, then promoted.
  await mapInTimeSlices(domains, (domain) => void deriveResolutionKeys(domain.name), yieldTurn);
  // Follow-up reads (NFT holders' token accounts, PDA owners) leave together, in full getMultipleAccounts calls.
  const reads = gatheredReads(endpoint, yieldTurn, domains.length >= HEADS_FROM_NAMES);
  const chain = reads.endpoint;
  let started: Promise<Settled>[];
  try {
    started = await mapInTimeSlices(
      domains,
      (domain) =>
        safe && resolver.readsSrs(domain)
          ? settle(resolver, chain, domain, () => resolver.safeResolve(chain, domain))
          : resolveReadingAhead(resolver, chain, domain),
      yieldTurn,
    );
  } finally {
    // The resolutions started so far are shared (other requests join them): their reads leave however the
    // starts ended, or they would wait for ever.
    reads.open();
  }
  return Promise.all(started);
}

/** `resolve`, with a gated name's resolution started alongside its slot read. */
function resolveReadingAhead(resolver: BulkResolvable, endpoint: RpcEndpoint, domain: FullDomain): Promise<Settled> {
  const pastGate = () => resolver.resolvePastGate(endpoint, domain);
  if (resolver.readsSrs(domain)) return settle(resolver, endpoint, domain, pastGate);
  let gate: Promise<void> | undefined;
  try {
    const trace = endpoint.budget?.trace;
    gate = trace === undefined ? tldGate(endpoint, domain) : tracedTldGate(endpoint, domain, trace);
  } catch (error) {
    return Promise.resolve({ ok: false, error });
  }
  if (!gate) return settle(resolver, endpoint, domain, pastGate);
  const early = settle(resolver, endpoint, domain, pastGate);
  return gate.then(
    () => early,
    (error: unknown): Settled => ({ ok: false, error }),
  );
}

/**
 * The outcome of `run`, whether it answers at once, throws, or settles
 * later; never rejects. Its slot is taken as it settles: the entry it was
 * answered from at once, or the one its resolution was kept in.
 */
function settle(
  resolver: BulkResolvable,
  endpoint: RpcEndpoint,
  domain: FullDomain,
  run: () => Address | Promise<Address>,
): Promise<Settled> {
  const kept = () => resolver.answerEntry(endpoint, domain)?.slot;
  try {
    const answer = run();
    if (typeof answer === "string") return Promise.resolve(withSlot({ ok: true, key: answer }, resolver.lastHit?.slot));
    return answer.then(
      (key): Settled => withSlot({ ok: true, key }, kept()),
      (error: unknown): Settled => withSlot({ ok: false, error }, error instanceof SnsError ? kept() : undefined),
    );
  } catch (error) {
    const slot = error instanceof SnsError ? resolver.lastHit?.slot : undefined;
    return Promise.resolve(withSlot({ ok: false, error }, slot));
  }
}

const withSlot = (settled: Settled, slot: number | undefined): Settled =>
  slot === undefined || slot === Infinity ? settled : { ...settled, slot };
