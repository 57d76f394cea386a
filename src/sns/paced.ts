import type { ChainReader } from "./chain.js";

/**
 * Items worked through between two calls of `ChainReader.pace`: about a
 * millisecond of key derivations at most, so a reader that yields every few
 * milliseconds keeps every other request's latency.
 */
export const PACE_SLICE = 16;

/**
 * `work` applied to every item of a list whose length the chain chose: the
 * reader's `pace` is told the length first (it may refuse the whole list at
 * once), then asked before each slice of PACE_SLICE items (it may have the
 * work wait: see ChainReader.pace). Without `pace`, one loop.
 */
export async function mapPaced<T, R>(chain: ChainReader, items: readonly T[], work: (item: T) => R): Promise<R[]> {
  if (!chain.pace) return items.map(work);
  const results = new Array<R>(items.length);
  const admitted = chain.pace(items.length);
  if (admitted) await admitted;
  for (let start = 0; start < items.length; start += PACE_SLICE) {
    const end = Math.min(items.length, start + PACE_SLICE);
    const waiting = chain.pace(0);
    if (waiting) await waiting;
    for (let i = start; i < end; i++) results[i] = work(items[i]!);
  }
  return results;
}
