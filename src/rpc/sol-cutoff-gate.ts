import { isPastSolCutoff, safeSlotReuseMs } from "../sns/sol-cutoff.js";
import type { JsonRpcClient } from "./json-rpc.js";
import { parseSlot } from "./results.js";

/** Even a provably safe slot is re-read after this long, so answers stay recent. */
const MAX_REUSE_MS = 60_000;

/** What is known of one endpoint's chain; plain data, so it may be kept across requests anywhere. */
export interface CutoffState {
  /** Past the cutoff: remembered for good. */
  reached: boolean;
  /** Before this time (ms since epoch) the chain cannot have reached the cutoff. */
  openUntil: number;
  /** The finalized slot the last decision was read at; absent until one was. */
  slot?: number;
}

/**
 * Per-endpoint answer to "has `.sol` resolution reached its cutoff?".
 * Past the cutoff is remembered for good (no further slot calls), once two
 * slot reads in a row say so: one answer's slot may be false (far ahead),
 * and kept for good it would end `.sol` resolution for the life of the
 * process. Before it, a finalized slot is reused only while the chain cannot
 * possibly have reached the cutoff. Failed slot calls are not remembered.
 */
export class SolCutoffGate {
  private pending: Promise<boolean> | undefined;

  constructor(
    private readonly client: JsonRpcClient,
    private readonly state: CutoffState = { reached: false, openUntil: 0 },
    private readonly now: () => number = Date.now,
  ) {}

  /** Known (past the cutoff, or a slot still safe to reuse): at once; otherwise once a slot is read. */
  isReached(): boolean | Promise<boolean> {
    if (this.state.reached) return true;
    if (this.now() < this.state.openUntil) return false;
    this.pending ??= this.readSlot().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  /** What is known now, reading nothing: whether `.sol` resolution is paused, and the slot that was decided at. */
  get known(): Readonly<CutoffState> {
    return this.state;
  }

  private async readSlot(): Promise<boolean> {
    // Measure reuse from before the call: the answer may be as old as that.
    const askedAt = this.now();
    let slot = await this.finalizedSlot();
    // Confirmed by a second answer before it is kept for good (with several endpoints, the first in rotation's).
    if (isPastSolCutoff(slot)) slot = await this.finalizedSlot();
    this.state.slot = slot;
    if (isPastSolCutoff(slot)) {
      this.state.reached = true;
      return true;
    }
    this.state.openUntil = askedAt + Math.min(safeSlotReuseMs(slot), MAX_REUSE_MS);
    return false;
  }

  private async finalizedSlot(): Promise<number> {
    return parseSlot(await this.client.call("getSlot", [{ commitment: "finalized" }]));
  }
}
