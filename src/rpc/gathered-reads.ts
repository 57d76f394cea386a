import type { Address } from "@solana/kit";
import type { AccountData, TokenAmountEntry } from "../sns/chain.js";
import type { RpcEndpoint } from "./endpoint.js";
import { type NextTurn, TimeSlices } from "./time-slices.js";

/**
 * One read of a gathering view, from when it is asked for until its reader has its outcome: one record
 * instead of the closures it was held, counted done and queued as arrived in, as a bulk request keeps a
 * thousand of them waiting for their reads, and a collection copies what they hold.
 */
interface GatheredRead {
  readonly read: (target: RpcEndpoint) => Promise<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
  /** Set when the read settles: its value, or its error when `failed`. */
  outcome: unknown;
  failed: boolean;
}

/** What a gathering view keeps beside the endpoint it wraps. */
interface Gathering {
  held: GatheredRead[];
  /** This view's reads sent and not yet handed to their readers. */
  inFlight: number;
  /** A release is waiting for the next turn. */
  releasing: boolean;
  /** Reads are still being asked for over several turns (GatheredReads.open): none leaves yet. */
  closed: boolean;
  /** Settled reads not yet handed to their readers, in the order they settled (those handed over cleared). */
  arrived: (GatheredRead | undefined)[];
  /** `arrived` is being worked through. */
  delivering: boolean;
  readonly target: RpcEndpoint;
  readonly nextTurn: NextTurn;
}

interface GatheredView extends RpcEndpoint {
  readonly gathering: Gathering;
  getAccountHeads?(keys: readonly Address[], heads: readonly number[]): Promise<(AccountData | null)[]>;
}

/** A gathering view, and how to let its reads leave once every first read has been asked for. */
export interface GatheredReads {
  readonly endpoint: RpcEndpoint;
  /** Lets held reads leave (on the next turn, as always); until then they wait, however many turns pass. */
  open(): void;
}

/**
 * `endpoint` (a request's view) for work over many names at once: a read
 * (accounts, a mint's largest holders) waits while any of this view's reads
 * are in flight, and once none is (and the turn that settled the last one
 * has run its continuations) every waiting read leaves in the same turn, so
 * the batching loader packs the account reads into getMultipleAccounts
 * calls of 100 keys. Without it, reads that follow up on a reply leave as
 * each part of that reply is settled (account-loader.ts paces a large reply
 * over several turns, and the calls of one round come back in several
 * batches): many small calls instead of a few full ones. Reads asked for in
 * one turn leave together, so round trips stay the reads' causal depth;
 * reads asked for over several turns (a thousand names started a slice at a
 * time) leave together once `open` is called. Settled reads are handed to
 * their readers a slice of time at a time (TimeSlices), the first step of
 * each reader's continuation run before the clock is read: what a reader does with its
 * accounts (decoding, a curve check of the owner) would otherwise run for a
 * whole reply of a thousand names in one turn. A read counts as in flight
 * until its reader has it, so follow-ups still leave together.
 * With `heads`, it offers getAccountHeads (sns/chain.ts): the registry
 * accounts of many names, read as their headers, fill calls of their own,
 * and the rest of each (1 KB or more for a registered domain) is neither
 * sent nor decoded. Everything else (`url`, the request's budget and tally,
 * the cutoff, pacing) is the endpoint's, inherited.
 */
export function gatheredReads(endpoint: RpcEndpoint, nextTurn: NextTurn, heads = false): GatheredReads {
  const view = Object.create(endpoint) as GatheredView & { gathering: Gathering };
  const gathering: Gathering = {
    held: [],
    inFlight: 0,
    releasing: false,
    closed: true,
    arrived: [],
    delivering: false,
    target: endpoint,
    nextTurn,
  };
  view.gathering = gathering;
  view.getAccounts = gatheredGetAccounts;
  if (heads) view.getAccountHeads = gatheredGetAccountHeads;
  view.getTokenLargestAccounts = gatheredGetTokenLargestAccounts;
  return {
    endpoint: view,
    open() {
      gathering.closed = false;
      release(gathering);
    },
  };
}

function gatheredGetAccounts(this: GatheredView, keys: readonly Address[]): Promise<(AccountData | null)[]> {
  return hold(this.gathering, (target) => target.getAccounts(keys));
}

function gatheredGetAccountHeads(
  this: GatheredView,
  keys: readonly Address[],
  heads: readonly number[],
): Promise<(AccountData | null)[]> {
  return hold(this.gathering, (target) => target.readAccountHeads(keys, heads));
}

function gatheredGetTokenLargestAccounts(
  this: GatheredView,
  mint: Address,
): Promise<readonly TokenAmountEntry[] | null> {
  return hold(this.gathering, (target) => target.getTokenLargestAccounts(mint));
}

/** `read`, sent with the next release. */
function hold<T>(gathering: Gathering, read: (target: RpcEndpoint) => Promise<T>): Promise<T> {
  const outcome = new Promise<T>((resolve, reject) => {
    gathering.held.push({
      read,
      // `resolve` takes what `read` yields: only this function makes these records, both of one `T`.
      resolve: resolve as (value: unknown) => void,
      reject,
      outcome: undefined,
      failed: false,
    });
  });
  release(gathering);
  return outcome;
}

/** Sends a held read; its outcome waits in `arrived` for its turn to be handed over. */
function send(gathering: Gathering, held: GatheredRead): void {
  gathering.inFlight++;
  let reading: Promise<unknown>;
  try {
    reading = held.read(gathering.target);
  } catch (error) {
    // A read that throws instead of rejecting fails its reader alone, not the rest of the release.
    reading = Promise.reject(error);
  }
  reading.then(
    (value) => {
      held.outcome = value;
      arrive(gathering, held);
    },
    (error: unknown) => {
      held.outcome = error;
      held.failed = true;
      arrive(gathering, held);
    },
  );
}

/** Hands a settled read to its reader: no longer in flight, so the next release may follow. */
function handOver(gathering: Gathering, held: GatheredRead): void {
  gathering.inFlight--;
  release(gathering);
  if (held.failed) held.reject(held.outcome);
  else held.resolve(held.outcome);
}

/** Sends the held reads on the next turn, when the view is open and nothing of it is in flight by then. */
function release(gathering: Gathering): void {
  if (gathering.closed || gathering.releasing || gathering.inFlight > 0 || gathering.held.length === 0) return;
  gathering.releasing = true;
  void gathering.nextTurn().then(() => {
    gathering.releasing = false;
    if (gathering.inFlight > 0) return;
    const { held } = gathering;
    gathering.held = [];
    for (const each of held) send(gathering, each);
  });
}

/** Queues a settled read for its reader, and starts handing them out if that is not going on already. */
function arrive(gathering: Gathering, held: GatheredRead): void {
  gathering.arrived.push(held);
  if (!gathering.delivering) void deliverInSlices(gathering);
}

/**
 * Hands settled reads to their readers in order, a slice of time per turn.
 * After each, one microtask hop lets the first step of the reader's
 * continuation (queued by the hand-over, ahead of this loop's) run before
 * the clock is read, so a slice counts mostly the readers' work, not just
 * the hand-overs (deeper steps run after the read, uncounted).
 */
async function deliverInSlices(gathering: Gathering): Promise<void> {
  gathering.delivering = true;
  const slices = new TimeSlices(gathering.nextTurn);
  const { arrived } = gathering;
  // `arrived` grows while it is worked through: reads settling meanwhile join the end.
  for (let i = 0; i < arrived.length; i++) {
    const held = arrived[i]!;
    // Cleared as it is handed over: the list lives until its last read is handed over, the records need not.
    arrived[i] = undefined;
    handOver(gathering, held);
    await Promise.resolve();
    const turn = slices.spent();
    if (turn) await turn;
  }
  gathering.arrived = [];
  gathering.delivering = false;
}
