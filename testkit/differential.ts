import { expect } from "vitest";

export type Settled<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: unknown };

/** An outcome either side may reach by throwing, as a value both sides can be compared on. */
export async function settle<T>(run: () => T | Promise<T>): Promise<Settled<T>> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    return { ok: false, error };
  }
}

/** How often each outcome came up, so a skewed generator cannot pass vacuously. */
export type Tally = Map<string, number>;

export const count = (tally: Tally, key: string): void => void tally.set(key, (tally.get(key) ?? 0) + 1);

export function expectReached(tally: Tally, outcomes: readonly string[], seed: number): void {
  const reached = Object.fromEntries(tally);
  for (const outcome of outcomes) {
    expect(reached, `seed=${seed}: no case reached "${outcome}"`).toHaveProperty([outcome]);
  }
}

/** Runs one generated case; a failure carries `detail` (seed, case, inputs) so it can be replayed. */
export async function withContext(detail: string, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`${detail}\n${message}`, { cause: error });
  }
}

/** Runs `run` over `items`, at most `limit` at a time. */
export async function mapLimit<T>(items: readonly T[], limit: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await run(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
