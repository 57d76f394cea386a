import { RenewedSet } from "../sns/renewed-map.js";
import type { RequestBudget } from "./request-budget.js";

/**
 * The requests one batch reply answered come back for their next reads one
 * poll phase after another: their clients read the answers and write their
 * next requests over the following milliseconds. Sent as soon as a slot is free or the window ends, their
 * reads leave in several small RPC requests. A gather holds the send while
 * the poll phase just read brought new reads, up to as many requests as the
 * reply answered and at most `boundMs`: it ends at the first poll phase that
 * brings none (a lone read waits one turn of an idle loop), when as many
 * requests have asked as were answered (a lone client's next read leaves at
 * once), or at the bound.
 */
export class ReplyGather {
  /** Requests still expected; 0: not gathering. */
  private left = 0;
  private startedAt = 0;
  /** The requests that asked since the gather started, each counted once (undefined: reads of no request). */
  private readonly askers = new RenewedSet<RequestBudget | undefined>();
  /** A read was asked for since the last check phase. */
  private askedSincePoll = false;

  constructor(private readonly boundMs: number) {}

  get active(): boolean {
    return this.left > 0;
  }

  /** A reply that answered `answered` requests has been settled; a gather in progress waits for those too. */
  start(answered: number, now: number): void {
    // A gather past its bound that no read ended (the loop went idle) holds nothing more, nor its askers.
    if (this.left > 0 && now > this.startedAt + this.boundMs) this.end();
    this.startedAt = now;
    this.left += answered;
  }

  /** A request asks for reads (only called while active). */
  asked(budget: RequestBudget | undefined, now: number): void {
    if (now > this.startedAt + this.boundMs) return this.end();
    this.askedSincePoll = true;
    if (this.askers.has(budget)) return;
    this.askers.add(budget);
    if (--this.left === 0) this.end();
  }

  /**
   * At a check phase: whether the send waits for the next poll phase (the
   * last one brought reads and the bound is not reached); otherwise the
   * gather is over.
   */
  holds(now: number, oldestQueuedAt: number): boolean {
    if (this.left > 0 && this.askedSincePoll && now < this.deadline(oldestQueuedAt)) {
      this.askedSincePoll = false;
      return true;
    }
    this.end();
    return false;
  }

  /** The latest a send is held: `boundMs` after the last reply settled and after the oldest queued read. */
  deadline(oldestQueuedAt: number): number {
    return Math.min(this.startedAt, oldestQueuedAt) + this.boundMs;
  }

  end(): void {
    this.left = 0;
    this.askedSincePoll = false;
    this.askers.clear();
  }
}
