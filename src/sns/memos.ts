import { type MemoStats, SlabMemo } from "./slab-memo.js";

/**
 * The memos of pure results that live as long as the process (derived keys,
 * resolution key sets, curve and signature verdicts): every one is created
 * here, by name and with its byte budget, so their sum is the memory this
 * layer may hold outside any request, and `memoBudgets` reports each one.
 * test/architecture.test.ts fails on a memo created anywhere else.
 */
const registered = new Map<string, SlabMemo>();

/** A memo of values of `valueBytes`, within `budgetBytes` (see SlabMemo); one per `name`. */
export function createMemo(name: string, budgetBytes: number, valueBytes: number): SlabMemo {
  if (registered.has(name)) throw new Error(`memo ${name} exists already`);
  const memo = new SlabMemo(budgetBytes, valueBytes);
  registered.set(name, memo);
  return memo;
}

/** Every memo created so far, by name: its budget, and its entries and bytes allocated now. */
export function memoBudgets(): Record<string, MemoStats> {
  return Object.fromEntries([...registered].map(([name, memo]) => [name, memo.stats()]));
}
