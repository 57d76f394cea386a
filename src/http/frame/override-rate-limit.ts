import type { Context, MiddlewareHandler } from "hono";
import { LRUCache } from "lru-cache";
import type { CostAllowance } from "../../rpc/request-budget.js";
import type { AppEnv } from "../deps.js";
import { addAnswerHeaders, fail } from "../answer/envelope.js";

/**
 * The client's address: the socket's peer, or — only when an operator names
 * a header set by its own proxy — the last hop that proxy appended. Other
 * headers are client-controlled and would let anyone pick their own bucket.
 */
function clientIp(c: Context, header: string | undefined, peerAddress: (c: Context) => string | undefined): string {
  if (header) {
    const hops = (c.req.header(header) ?? "").split(",");
    const last = hops[hops.length - 1]?.trim();
    if (last) return last;
  }
  return peerAddress(c) ?? "unknown";
}

const WINDOW_MS = 60_000;
/** Client IPs remembered at once; the least recently seen are forgotten (and start a fresh window). */
const MAX_CLIENTS = 20_000;

/** One client's window: the JSON-RPC calls its override requests caused since `started`. */
class ClientWindow implements CostAllowance {
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
 * Requests naming their own RPC endpoint make this server send JSON-RPC
 * calls to a third party, as many as the answers they get lead to: each
 * client IP may cause `callsPerMinute` of them (fixed one-minute windows).
 * A request is let in while its client has calls left; each call its budget
 * pays for (request-budget.ts) is taken from the client's window as it is
 * sent, so concurrent requests of one client share what is left, and a
 * request that runs out midway ends with 429 like one refused at the door.
 * Called (by frame.ts) only for requests that name an override: the
 * others are never counted.
 */
export function overrideRateLimit(
  callsPerMinute: number,
  clientIpHeader: string | undefined,
  peerAddress: (c: Context) => string | undefined,
): MiddlewareHandler<AppEnv> {
  const clients = new LRUCache<string, ClientWindow>({ max: MAX_CLIENTS });
  return function overrideRateLimit(c, next) {
    const ip = clientIp(c, clientIpHeader, peerAddress);
    let window = clients.get(ip);
    if (!window) clients.set(ip, (window = new ClientWindow(callsPerMinute)));
    const now = Date.now();
    const remaining = window.remaining(now);
    const reset = String(window.resetSeconds(now));
    // Remaining: the calls left when the request was let in (its own are taken as they are sent).
    addAnswerHeaders(c, {
      "RateLimit-Policy": `${callsPerMinute};w=60`,
      "RateLimit-Limit": String(callsPerMinute),
      "RateLimit-Remaining": String(Math.max(0, remaining)),
      "RateLimit-Reset": reset,
    });
    if (remaining <= 0) return Promise.resolve(fail(c, 429, "Too many requests", { headers: { "Retry-After": reset } }));
    c.set("costAllowance", window);
    return next();
  };
}
