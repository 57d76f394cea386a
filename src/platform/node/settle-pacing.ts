import { performance } from "node:perf_hooks";
import type { Defer, SettlePacing } from "../../rpc/account-loader.js";

/** How long the event loop is watched before its utilization counts. */
const WINDOW_MS = 100;
/**
 * Above this share of busy time the loop has no idle time to spend: requests
 * read earlier would only wait for the CPU, and smaller batches cost more of it.
 */
const BUSY = 0.8;
/**
 * A reply that took at least this long (sent to settled) comes from an RPC
 * node far enough that its requests wait a round trip each: answering the
 * first clients of a reply before the rest lets their next reads leave a
 * turn sooner, which matters more than the larger batches of a busy loop.
 * Replies from a node this close are settled at once while the loop is busy.
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

/**
 * Batch replies settled `slice` reads per event-loop turn while the loop was
 * less than 80% busy over its last full 100 ms window (waiting on RPC round
 * trips, the case pacing is for), or while the quickest reply of that window
 * took 10 ms or more (a far RPC node: requests wait a round trip each, and
 * the longer they wait the more of them the collector copies); all at once
 * when the loop was busier and replies came back quickly (bound by CPU, as
 * with a near RPC node, where the larger batches cost less per answer). The
 * quickest reply rather than each one: on a busy loop a reply waits for its
 * turn to be read, whatever the node's distance. `slice` 0 turns pacing off.
 */
export function nodeSettlePacing(slice: number): SettlePacing | undefined {
  if (slice <= 0) return undefined;
  let since = performance.eventLoopUtilization();
  let idleTime = false;
  let farRpc = false;
  let quickest = Infinity;
  return {
    slice(roundTripMs) {
      quickest = Math.min(quickest, roundTripMs);
      const window = performance.eventLoopUtilization(since);
      if (window.idle + window.active >= WINDOW_MS) {
        idleTime = window.utilization < BUSY;
        // A window without replies says nothing of the node's distance.
        if (quickest !== Infinity) farRpc = quickest >= FAR_RPC_MS;
        quickest = Infinity;
        since = performance.eventLoopUtilization();
      }
      return idleTime || farRpc ? slice : 0;
    },
    yieldToIo: afterNextPoll,
  };
}
