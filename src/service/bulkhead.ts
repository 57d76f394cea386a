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

export function routeBulkheads(sizes: RouteBulkheadSizes): RouteBulkheads {
  const bulkhead = (name: string, maxUnits: number) =>
    new Bulkhead(name, { maxUnits, maxQueuedUnits: maxUnits * QUEUE_FACTOR }, () => new OverloadedError(`too many ${name} under way and waiting`));
  return {
    records: bulkhead("records", sizes.records),
    wallets: bulkhead("wallets", sizes.wallets),
    overrideLists: bulkhead("override list requests", sizes.overrideLists),
  };
}

export interface BulkheadLimits {
  /** Units under way at once; one piece of work larger than this runs alone. */
  readonly maxUnits: number;
  /** Units waiting for room at once; past it, work is refused. */
  readonly maxQueuedUnits: number;
}

interface Waiting {
  readonly units: number;
  start(): void;
}

export class Bulkhead {
  private running = 0;
  private queued = 0;
  private readonly waiting: Waiting[] = [];

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
    if (this.waiting.length === 0 && this.fits(units)) {
      this.running += units;
    } else {
      if (this.queued + units > this.limits.maxQueuedUnits) throw this.refusal();
      this.queued += units;
      // Counted as running by startWaiting, before it is started.
      await new Promise<void>((start) => this.waiting.push({ units, start }));
    }
    try {
      return await task();
    } finally {
      this.running -= units;
      this.startWaiting();
    }
  }

  private fits(units: number): boolean {
    return this.running === 0 || this.running + units <= this.limits.maxUnits;
  }

  private startWaiting(): void {
    while (this.waiting.length > 0 && this.fits(this.waiting[0]!.units)) {
      const next = this.waiting.shift()!;
      this.queued -= next.units;
      this.running += next.units;
      next.start();
    }
  }
}
