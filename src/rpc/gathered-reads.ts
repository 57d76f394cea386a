import type { Address } from "@solana/kit";
import type { AccountData, TokenAmountEntry } from "../sns/chain.js";
import type { RpcEndpoint } from "./endpoint.js";

/** Lets the event loop run once; resolves on a later turn. */
export type NextTurn = () => Promise<void>;

/** A read waiting to be sent: sends it and settles the caller's promise with its outcome. */
type HeldRead = () => void;

/** What a gathering view keeps beside the endpoint it wraps. */
interface Gathering {
  held: HeldRead[];
  /** This view's reads sent and not yet settled. */
  inFlight: number;
  /** A release is waiting for the next turn. */
  releasing: boolean;
  readonly target: RpcEndpoint;
  readonly nextTurn: NextTurn;
}

interface GatheredView extends RpcEndpoint {
  readonly gathering: Gathering;
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
 * one turn leave together, so round trips stay the reads' causal depth.
 * Everything else (`url`, the request's budget and tally, the cutoff,
 * pacing) is the endpoint's, inherited.
 */
export function gatheredReads(endpoint: RpcEndpoint, nextTurn: NextTurn): RpcEndpoint {
  const view = Object.create(endpoint) as GatheredView & { gathering: Gathering };
  view.gathering = { held: [], inFlight: 0, releasing: false, target: endpoint, nextTurn };
  view.getAccounts = gatheredGetAccounts;
  view.getTokenLargestAccounts = gatheredGetTokenLargestAccounts;
  return view;
}

function gatheredGetAccounts(this: GatheredView, keys: readonly Address[]): Promise<(AccountData | null)[]> {
  return hold(this.gathering, (target) => target.getAccounts(keys));
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
    gathering.held.push(() => {
      gathering.inFlight++;
      const done = () => {
        gathering.inFlight--;
        release(gathering);
      };
      const pending = read(gathering.target);
      pending.then(done, done);
      pending.then(resolve, reject);
    });
  });
  release(gathering);
  return outcome;
}

/** Sends the held reads on the next turn, when nothing of this view is in flight by then. */
function release(gathering: Gathering): void {
  if (gathering.releasing || gathering.inFlight > 0 || gathering.held.length === 0) return;
  gathering.releasing = true;
  void gathering.nextTurn().then(() => {
    gathering.releasing = false;
    if (gathering.inFlight > 0) return;
    const { held } = gathering;
    gathering.held = [];
    for (const send of held) send();
  });
}
