import { performance } from "node:perf_hooks";
import type { Defer, SettlePacing } from "../../rpc/account-loader.js";

/** How long the event loop, and an endpoint's replies, are watched before a verdict. */
const WINDOW_MS = 100;
/**
 * Above this share of busy time the loop has no idle time to spend: requests
 * read earlier would only wait for the CPU, and smaller batches cost more of it.
 */
const BUSY = 0.8;
/**
 * An endpoint whose quickest reply of a window took at least this long is
 * far: its requests wait a round trip each, so answering the first clients
 * of a reply before the rest lets their next reads leave a turn sooner,
 * which matters more than the larger batches of a busy loop. The replies of
 * a nearer endpoint are settled at once while the loop is busy.
 */
const FAR_RPC_MS = 10;

/** Two check phases on: the poll phase between them reads whatever arrived meanwhile. */
const afterNextPoll: Defer = (task) => {
  let inner: NodeJS.Immediate | undefined;
  const outer = setImmediate(() => {
    inner = setImmediate(task);
  });
  return () => {
    clearImmediate(outer);
    if (inner) clearImmediate(inner);
  };
};

/** Whether the event loop was under 80% busy over its last full 100 ms window: one watch for all the loaders. */
function loopIdleTime(): () => boolean {
  let since = performance.eventLoopUtilization();
  let idleTime = false;
  return () => {
    const window = performance.eventLoopUtilization(since);
    if (window.idle + window.active >= WINDOW_MS) {
      idleTime = window.utilization < BUSY;
      since = performance.eventLoopUtilization();
    }
    return idleTime;
  };
}

/**
 * The pacing of each endpoint's loader: its batch replies settled `slice`
 * reads per event-loop turn while the loop was less than 80% busy over its
 * last full 100 ms window (waiting on RPC round trips, the case pacing is
 * for), or while the quickest of the endpoint's replies in its last window
 * took 10 ms or more (a far RPC node: requests wait a round trip each, and
 * the longer they wait the more of them the collector copies); all at once
 * when the loop was busier and the endpoint answered quickly (bound by CPU,
 * as with a near RPC node, where the larger batches cost less per answer).
 * The quickest reply rather than each one: on a busy loop a reply waits for
 * its turn to be read, whatever the node's distance. Each loader judges its
 * own endpoint: an `rpc` override answering quickly, or failing at once,
 * says nothing of `RPC_URL`. `slice` 0 turns pacing off.
 */
export function nodeSettlePacing(slice: number): (() => SettlePacing) | undefined {
  if (slice <= 0) return undefined;
  const idleTime = loopIdleTime();
  return () => {
    let windowStart = performance.now();
    let quickest = Infinity;
    let farRpc = false;
    return {
      slice(roundTripMs) {
        const now = performance.now();
        // A window left open by a quiet endpoint (windows close at replies) is judged by this reply alone.
        if (now - windowStart >= 2 * WINDOW_MS) quickest = Infinity;
        if (roundTripMs !== undefined) quickest = Math.min(quickest, roundTripMs);
        if (now - windowStart >= WINDOW_MS) {
          // A window without replies says nothing of the node's distance.
          if (quickest !== Infinity) farRpc = quickest >= FAR_RPC_MS;
          quickest = Infinity;
          windowStart = now;
        }
        return idleTime() || farRpc ? slice : 0;
      },
      yieldToIo: afterNextPoll,
    };
  };
}
