import { LRUCache } from "lru-cache";
import type { CostAllowance } from "../../rpc/request-budget.js";
import type { RateLimitHeaders } from "../env.js";

const WINDOW_MS = 60_000;

/** Clients remembered at once; the least recently seen are forgotten (and start a fresh window). */
const MAX_CLIENTS = 20_000;

/** One client's window: the JSON-RPC calls its requests caused since `started`. */
export class ClientWindow implements CostAllowance {
  private started = Date.now();
  private spent = 0;

  constructor(private readonly limit: number) {}

  /** Calls left in the current window (a new window once the last one is over). */
  remaining(now = Date.now()): number {
    if (now - this.started >= WINDOW_MS) {
      this.started = now;
      this.spent = 0;
    }
    return this.limit - this.spent;
  }

  /** Seconds until the current window ends. */
  resetSeconds(now = Date.now()): number {
    return Math.max(1, Math.ceil((this.started + WINDOW_MS - now) / 1000));
  }

  tryTake(calls: number): boolean {
    if (calls > this.remaining()) {
      // Nothing more in this window: later requests are refused at once.
      this.spent = this.limit;
      return false;
    }
    this.spent += calls;
    return true;
  }
}

/**
 * What one client's requests may make this server send to one kind of
 * endpoint: `callsPerMinute` JSON-RPC calls per client (fixed one-minute
 * windows; the client as client-key.ts works it out). Two are
 * kept: one for `RPC_URL` (RPC_RATE_LIMIT: every request that reads the
 * chain, whose calls the operator pays for), one for `rpc` overrides
 * (RPC_OVERRIDE_RATE_LIMIT: calls sent to a third party). A request is let
 * in while its client has calls left; each call its budget pays for
 * (request-budget.ts) is taken from the client's window as it is sent, so
 * concurrent requests of one client share what is left, and a request that
 * runs out midway ends with 429 like one refused at the door. Asked (by
 * http/frame/client-admission.ts) only on routes that read the chain: the
 * others are never counted.
 */
/** A client let in: the window its request draws its calls from, and the headers its answer carries. */
export interface ClientAdmission {
  readonly window: ClientWindow;
  readonly headers: RateLimitHeaders;
}

export class ClientCallLimit {
  private readonly clients = new LRUCache<string, ClientWindow>({ max: MAX_CLIENTS });
  private readonly policy: string;
  private readonly limit: string;

  constructor(readonly callsPerMinute: number) {
    this.policy = `${callsPerMinute};w=60`;
    this.limit = String(callsPerMinute);
  }

  /**
   * `client` let in as the app's frame lets a request in (frame/client-admission.ts): its window, to
   * draw its calls from, and the `RateLimit-*` headers its answer carries; undefined once it has no
   * calls left, when the app answers it, with its 429. For requests answered before the app
   * (http/answer/resolve-repeats.ts).
   */
  admit(client: string): ClientAdmission | undefined {
    const window = this.windowOf(client);
    const headers = this.headersOf(window);
    return headers["ratelimit-remaining"] === "0" ? undefined : { window, headers };
  }

  /** The window of `client` (a fresh one for a client not seen, or forgotten). */
  windowOf(client: string): ClientWindow {
    let window = this.clients.get(client);
    if (!window) this.clients.set(client, (window = new ClientWindow(this.callsPerMinute)));
    return window;
  }

  /** Remaining: the calls left when the request was let in (its own are taken as they are sent). */
  headersOf(window: ClientWindow): RateLimitHeaders {
    const now = Date.now();
    return {
      "ratelimit-limit": this.limit,
      "ratelimit-policy": this.policy,
      "ratelimit-remaining": String(Math.max(0, window.remaining(now))),
      "ratelimit-reset": String(window.resetSeconds(now)),
    };
  }
}
