import { performance } from "node:perf_hooks";
import type { Defer, SettlePacing } from "../../rpc/account-loader.js";

/** How long the event loop is watched before its utilization counts. */
const WINDOW_MS = 100;
/**
 * Above this share of busy time the loop has no idle time to spend: requests
 * read earlier would only wait for the CPU, and smaller batches cost more of it.
 */
const BUSY = 0.8;

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
 * trips, the case pacing is for); all at once when it was busier (bound by
 * CPU, as with a fast RPC node, where the larger batches cost less per
 * answer). `slice` 0 turns pacing off.
 */
export function nodeSettlePacing(slice: number): SettlePacing | undefined {
  if (slice <= 0) return undefined;
  let since = performance.eventLoopUtilization();
  let idleTime = false;
  return {
    slice() {
      const window = performance.eventLoopUtilization(since);
      if (window.idle + window.active >= WINDOW_MS) {
        idleTime = window.utilization < BUSY;
        since = performance.eventLoopUtilization();
      }
      return idleTime ? slice : 0;
    },
    yieldToIo: afterNextPoll,
  };
}
