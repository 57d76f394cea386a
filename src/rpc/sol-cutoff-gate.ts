import { isPastSolCutoff, safeSlotReuseMs } from "../sns/sol-cutoff.js";
import type { JsonRpcClient } from "./json-rpc.js";
import { parseSlot } from "./results.js";

/** Even a provably safe slot is re-read after this long, so answers stay recent. */
const MAX_REUSE_MS = 60_000;

/**
 * Per-endpoint answer to "has `.sol` resolution reached its cutoff?".
 * Past the cutoff is remembered for good (no further slot calls); before it,
 * a finalized slot is reused only while the chain cannot possibly have
 * reached the cutoff. Failed slot calls are not remembered.
 */
export class SolCutoffGate {
  private reached = false;
  private openUntil = 0;
  private pending: Promise<boolean> | undefined;

  constructor(
    private readonly client: JsonRpcClient,
    private readonly now: () => number = Date.now,
  ) {}

  isReached(): Promise<boolean> {
    if (this.reached) return Promise.resolve(true);
    if (this.now() < this.openUntil) return Promise.resolve(false);
    this.pending ??= this.readSlot().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  private async readSlot(): Promise<boolean> {
    // Measure reuse from before the call: the answer may be as old as that.
    const askedAt = this.now();
    const slot = parseSlot(await this.client.call("getSlot", [{ commitment: "finalized" }]));
    if (isPastSolCutoff(slot)) {
      this.reached = true;
      return true;
    }
    this.openUntil = askedAt + Math.min(safeSlotReuseMs(slot), MAX_REUSE_MS);
    return false;
  }
}
