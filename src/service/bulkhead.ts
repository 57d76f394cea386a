import { OverloadedError } from "../rpc/errors.js";

/**
 * How much of one kind of work may be under way at once, in units the
 * route chooses (records asked for, wallets, requests), and how much may
 * wait for room. Work past both is refused at once: a burst of 1,024
 * connections asking `/records-v2` for 100 records each must not hold
 * 102,400 decoded records and their answers in memory together (README,
 * Bounded memory). Work waits in arrival order; a waiting request holds only
 * its parsed input.
 */
/**
 * The heavy routes' bulkheads (README, Bounded memory): records asked of
 * `/records-v2`, wallets asked of `/multiple-primary-domains`, and requests
 * naming an `rpc` override on the list routes (`/domains`, `/subdomains`),
 * whose lists the override's server sizes.
 */
export interface RouteBulkheads {
  readonly records: Bulkhead;
  readonly wallets: Bulkhead;
  readonly overrideLists: Bulkhead;
}

/** Units under way, per bulkhead (BULKHEAD_RECORDS, BULKHEAD_WALLETS, BULKHEAD_OVERRIDE_LISTS). */
export type RouteBulkheadSizes = Readonly<Record<keyof RouteBulkheads, number>>;

/**
 * Work waiting, as a multiple of the work under way: a waiting request holds only its parsed input, so
 * a 1,024-connection burst of the largest requests waits rather than being refused.
 */
export const QUEUE_FACTOR = 256;

/** How long work may wait for room, per bulkhead: a request's deadline (RPC_BUDGET_MS; with `rpc`, RPC_OVERRIDE_BUDGET_MS). */
export type RouteBulkheadWaits = Readonly<Record<keyof RouteBulkheads, number>>;

/** `leaseMs`: see BulkheadLimits.leaseMs (Workers). */
export function routeBulkheads(sizes: RouteBulkheadSizes, waits: RouteBulkheadWaits, leaseMs?: number): RouteBulkheads {
  const bulkhead = (name: string, maxUnits: number, maxWaitMs: number) =>
    new Bulkhead(
      name,
      { maxUnits, maxQueuedUnits: maxUnits * QUEUE_FACTOR, maxWaitMs, ...(leaseMs !== undefined && { leaseMs }) },
      () => new OverloadedError(`too many ${name} under way and waiting`),
    );
  return {
    records: bulkhead("records", sizes.records, waits.records),
    wallets: bulkhead("wallets", sizes.wallets, waits.wallets),
    overrideLists: bulkhead("override list requests", sizes.overrideLists, waits.overrideLists),
  };
}

export interface BulkheadLimits {
  /** Units under way at once; one piece of work larger than this runs alone. */
  readonly maxUnits: number;
  /** Units waiting for room at once; past it, work is refused. */
  readonly maxQueuedUnits: number;
  /**
   * Longest work waits for room; past it, it is refused as if there were no
   * room to wait (its request's deadline has not started yet, so without it
   * a request could wait far longer than its deadline). Absent: no limit.
   */
  readonly maxWaitMs?: number;
  /**
   * Longest one piece of work holds its units; past it they are taken back.
   * On Workers the runtime may cancel a request (its client went away) and
   * never run its `finally`: without a lease, its units would stay taken for
   * the isolate's life. Longer than any request may run (its budget's
   * deadline). Absent: units are held until the work gives them back (Node
   * runs every `finally`).
   */
  readonly leaseMs?: number;
}

/** Units taken by one piece of work, and when. */
interface Holding {
  readonly units: number;
  readonly since: number;
}

interface Waiting {
  readonly units: number;
  start(holding: Holding): void;
}

export class Bulkhead {
  private running = 0;
  private queued = 0;
  private readonly waiting: Waiting[] = [];
  /** With a lease: the holdings not given back yet, oldest first. */
  private readonly held = new Set<Holding>();

  constructor(
    readonly name: string,
    readonly limits: BulkheadLimits,
    /** The error refused work fails with (OverloadedError: 503 `Service overloaded` with `Retry-After`). */
    private readonly refusal: () => Error,
  ) {}

  /** Units under way and waiting now. */
  get load(): { readonly running: number; readonly queued: number } {
    return { running: this.running, queued: this.queued };
  }

  /** Runs `task` once `units` fit (at once when they do), or fails with the refusal when too much already waits. */
  async run<T>(units: number, task: () => Promise<T>): Promise<T> {
    this.takeBackExpired();
    let holding: Holding;
    if (this.waiting.length === 0 && this.fits(units)) {
      holding = this.hold(units);
    } else {
      if (this.queued + units > this.limits.maxQueuedUnits) throw this.refusal();
      this.queued += units;
      // Counted as running by startWaiting, before it is started.
      holding = await this.wait(units);
    }
    try {
      return await task();
    } finally {
      this.giveBack(holding);
      this.startWaiting();
    }
  }

  /** A place in the line; refused once it has waited `maxWaitMs`. */
  private wait(units: number): Promise<Holding> {
    const { maxWaitMs } = this.limits;
    if (maxWaitMs === undefined) return new Promise<Holding>((start) => this.waiting.push({ units, start }));
    return new Promise<Holding>((start, refuse) => {
      const waiting: Waiting = {
        units,
        start: (holding) => {
          clearTimeout(timer);
          start(holding);
        },
      };
      const timer = setTimeout(() => {
        const at = this.waiting.indexOf(waiting);
        if (at < 0) return;
        this.waiting.splice(at, 1);
        this.queued -= units;
        refuse(this.refusal());
        // Work behind it may fit where it did not.
        this.startWaiting();
      }, maxWaitMs);
      this.waiting.push(waiting);
    });
  }

  private fits(units: number): boolean {
    return this.running === 0 || this.running + units <= this.limits.maxUnits;
  }

  private hold(units: number): Holding {
    this.running += units;
    const holding = { units, since: this.limits.leaseMs === undefined ? 0 : Date.now() };
    if (this.limits.leaseMs !== undefined) this.held.add(holding);
    return holding;
  }

  /** Once per holding: one taken back at its lease's end is not given back again. */
  private giveBack(holding: Holding): void {
    if (this.limits.leaseMs !== undefined && !this.held.delete(holding)) return;
    this.running -= holding.units;
  }

  /** Takes back the units of work that outlived its lease (a request the runtime cancelled), and starts who waits. */
  private takeBackExpired(): void {
    const { leaseMs } = this.limits;
    if (leaseMs === undefined || this.held.size === 0) return;
    const expired = Date.now() - leaseMs;
    let taken = false;
    // Oldest first (insertion order): stop at the first one still within its lease.
    for (const holding of this.held) {
      if (holding.since >= expired) break;
      this.held.delete(holding);
      this.running -= holding.units;
      taken = true;
    }
    if (taken) this.startWaiting();
  }

  private startWaiting(): void {
    while (this.waiting.length > 0 && this.fits(this.waiting[0]!.units)) {
      const next = this.waiting.shift()!;
      this.queued -= next.units;
      next.start(this.hold(next.units));
    }
  }
}
