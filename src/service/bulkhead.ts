import { OverloadedError } from "../rpc/errors.js";
import { RenewedMap, RenewedSet } from "../sns/renewed-map.js";

/**
 * The heavy routes' bulkheads (docs/security.md, Heavy routes): records asked of
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

/** The share of a bulkhead's places and line one client may hold while others wait. */
export const SHARE = 1 / 4;

/** Work of no known client (the gateway's own, tests) is counted as one client. */
const NO_CLIENT = "";

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

/** Units taken by one piece of work, and when, for which client. */
interface Holding {
  readonly units: number;
  readonly since: number;
  readonly client: ClientLoad;
}

interface Waiting {
  readonly units: number;
  readonly client: ClientLoad;
  start(holding: Holding): void;
  /** Refuses it in the line (its client's surplus, making room for another client's work). */
  refuse(error: Error): void;
}

/** One client's units under way and waiting; forgotten once both are 0. */
interface ClientLoad {
  readonly key: string;
  running: number;
  queued: number;
}

/**
 * How much of one kind of work may be under way at once, in units the
 * route chooses (records asked for, wallets, requests), and how much may
 * wait for room. Work past both is refused at once: a burst of 1,024
 * connections asking `/records-v2` for 100 records each must not hold
 * 102,400 decoded records and their answers in memory together (docs/performance.md,
 * Memory). A waiting request holds only its parsed input.
 *
 * Fair shares, by client (the key the rate limits count by, http/clients/client-key.ts):
 * while another client's work waits, no client holds more than a `SHARE` of
 * the places under way or of the line. Work waits in arrival order, except
 * that work of a client holding less than its share of the places is started
 * ahead of the surplus of a client holding more; and when the line is full,
 * work of a client holding less than its share of it takes the place of the
 * newest surplus of a client holding more, which is refused. Places and line
 * nobody else needs are not left empty: a client alone may fill them all, and
 * another that arrives waits only for the first place to be given back.
 */
export class Bulkhead {
  private running = 0;
  private queued = 0;
  private readonly waiting: Waiting[] = [];
  /** With a lease: the holdings not given back yet, oldest first. */
  private readonly held = new RenewedSet<Holding>();
  /** Clients with work under way or waiting. */
  private readonly clients = new RenewedMap<string, ClientLoad>();

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

  /** Units of `client` under way and waiting now. */
  loadOf(client: string): { readonly running: number; readonly queued: number } {
    const load = this.clients.get(client);
    return { running: load?.running ?? 0, queued: load?.queued ?? 0 };
  }

  /**
   * Runs `task` for `client` once `units` fit (at once when they do and
   * nothing waits), or fails with the refusal when too much already waits,
   * or too much of that client's work.
   */
  async run<T>(units: number, task: () => Promise<T>, client: string = NO_CLIENT): Promise<T> {
    this.takeBackExpired();
    const load = this.clientLoad(client);
    let holding: Holding;
    if (this.waiting.length === 0 && this.fits(units)) {
      holding = this.hold(units, load);
    } else {
      if (this.queued + units > this.limits.maxQueuedUnits && !this.makeRoom(units, load)) {
        this.forgetIfIdle(load);
        throw this.refusal();
      }
      this.queued += units;
      load.queued += units;
      // Counted as running by startWaiting, before it is started.
      const waiting = this.wait(units, load);
      // Work arriving behind others may be the first to start: its client holds less than its share.
      this.startWaiting();
      holding = await waiting;
    }
    try {
      return await task();
    } finally {
      this.giveBack(holding);
      this.startWaiting();
    }
  }

  /** A place in the line; refused once it has waited `maxWaitMs`. */
  private wait(units: number, client: ClientLoad): Promise<Holding> {
    const { maxWaitMs } = this.limits;
    if (maxWaitMs === undefined)
      return new Promise<Holding>((start, refuse) => this.waiting.push({ units, client, start, refuse }));
    return new Promise<Holding>((start, refuse) => {
      const waiting: Waiting = {
        units,
        client,
        start: (holding) => {
          clearTimeout(timer);
          start(holding);
        },
        refuse: (error) => {
          clearTimeout(timer);
          refuse(error);
        },
      };
      const timer = setTimeout(() => {
        const at = this.waiting.indexOf(waiting);
        if (at < 0) return;
        this.waiting.splice(at, 1);
        this.queued -= units;
        client.queued -= units;
        this.forgetIfIdle(client);
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

  private clientLoad(key: string): ClientLoad {
    let load = this.clients.get(key);
    if (!load) this.clients.set(key, (load = { key, running: 0, queued: 0 }));
    return load;
  }

  private forgetIfIdle(load: ClientLoad): void {
    if (load.running <= 0 && load.queued <= 0) this.clients.delete(load.key);
  }

  /**
   * Makes room in the full line for `units` of `client`, when it holds less
   * than its share of the line: the newest work of clients holding more than
   * theirs is refused until the units fit. False (nothing refused) when they
   * would not.
   */
  private makeRoom(units: number, client: ClientLoad): boolean {
    const share = this.limits.maxQueuedUnits * SHARE;
    if (client.queued + units > share) return false;
    let freed = 0;
    const over = new Map<ClientLoad, number>();
    for (let i = this.waiting.length - 1; i >= 0 && this.queued - freed + units > this.limits.maxQueuedUnits; i--) {
      const waiting = this.waiting[i]!;
      const queued = over.get(waiting.client) ?? waiting.client.queued;
      if (waiting.client === client || queued <= share) continue;
      over.set(waiting.client, queued - waiting.units);
      freed += waiting.units;
    }
    if (this.queued - freed + units > this.limits.maxQueuedUnits) return false;
    for (let i = this.waiting.length - 1; i >= 0 && freed > 0; i--) {
      const waiting = this.waiting[i]!;
      const left = over.get(waiting.client);
      if (left === undefined || waiting.client.queued <= left) continue;
      this.waiting.splice(i, 1);
      this.queued -= waiting.units;
      waiting.client.queued -= waiting.units;
      freed -= waiting.units;
      this.forgetIfIdle(waiting.client);
      waiting.refuse(this.refusal());
    }
    return true;
  }

  /** Whether `units` more keep `client` within its share of the places (one piece of work always is). */
  private withinShare(client: ClientLoad, units: number): boolean {
    return client.running === 0 || client.running + units <= this.limits.maxUnits * SHARE;
  }

  private hold(units: number, client: ClientLoad): Holding {
    this.running += units;
    client.running += units;
    const holding = { units, since: this.limits.leaseMs === undefined ? 0 : Date.now(), client };
    if (this.limits.leaseMs !== undefined) this.held.add(holding);
    return holding;
  }

  /** Once per holding: one taken back at its lease's end is not given back again. */
  private giveBack(holding: Holding): void {
    if (this.limits.leaseMs !== undefined && !this.held.delete(holding)) return;
    this.release(holding);
  }

  private release(holding: Holding): void {
    this.running -= holding.units;
    holding.client.running -= holding.units;
    this.forgetIfIdle(holding.client);
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
      this.release(holding);
      taken = true;
    }
    if (taken) this.startWaiting();
  }

  /**
   * The work to start next: the oldest of a client within its share, else
   * the oldest of all (the surplus of clients past their share, started
   * only when no one within theirs waits).
   */
  private nextWaiting(): number {
    for (let i = 0; i < this.waiting.length; i++) {
      const waiting = this.waiting[i]!;
      if (this.withinShare(waiting.client, waiting.units)) return i;
    }
    return 0;
  }

  private startWaiting(): void {
    while (this.waiting.length > 0) {
      const at = this.nextWaiting();
      const next = this.waiting[at]!;
      if (!this.fits(next.units)) return;
      this.waiting.splice(at, 1);
      this.queued -= next.units;
      next.client.queued -= next.units;
      next.start(this.hold(next.units, next.client));
    }
  }
}
