import type { Localnet } from "../src/localnet/index.js";
import { request } from "./stack.js";

/** What one round of requests saw while a lying endpoint (testkit/slot-liar.ts) was in `RPC_URL`. */
export interface SlotAttackRound {
  /** Since the rounds began. */
  readonly atMs: number;
  /** Status of the round's last `/domains` answer (see `domainsStatuses` for all). */
  readonly domainsStatus: number;
  readonly domainsStatuses: readonly number[];
  /** The round's last `/domains` answer body. */
  readonly domains: unknown;
  /** `/resolve`'s answer body, when a resolve path was given. */
  readonly resolved: unknown;
  /** HTTP requests the honest endpoint received during the round (0: out of rotation, or not asked). */
  readonly honestAsked: number;
}

export interface SlotAttackRoundsOptions {
  readonly gateway: string;
  /** e.g. `/domains/<wallet>`. */
  readonly domainsPath: string;
  /** e.g. `/resolve/art.sol`: a read that asks no `minContextSlot`, so it shows which endpoint is in rotation. */
  readonly resolvePath?: string;
  /** The honest endpoint beside the liar, whose requests are counted. */
  readonly honest?: Localnet;
  readonly rounds: number;
  /**
   * `/domains` requests sent together per round (default 1): more, and every
   * -32016 an honest endpoint answers to a false floor comes several in a row.
   */
  readonly domainsPerRound?: number;
  /** Pause between rounds. */
  readonly everyMs: number;
}

/**
 * Rounds of `GET domainsPath` (`domainsPerRound` at once, then `GET resolvePath`), one after the other,
 * `everyMs` apart: `/domains` status over time with a liar in `RPC_URL`, which
 * chain `/resolve` reads, and whether the honest endpoint is still asked.
 */
export async function slotAttackRounds(options: SlotAttackRoundsOptions): Promise<SlotAttackRound[]> {
  const rounds: SlotAttackRound[] = [];
  const started = performance.now();
  for (let i = 0; i < options.rounds; i++) {
    const before = options.honest?.stats.httpRequests ?? 0;
    const atMs = Math.round(performance.now() - started);
    const answers = await Promise.all(
      Array.from({ length: options.domainsPerRound ?? 1 }, () => request(options.gateway, options.domainsPath)),
    );
    const domains = answers.at(-1)!;
    const resolved = options.resolvePath ? (await request(options.gateway, options.resolvePath)).body : undefined;
    const honestAsked = (options.honest?.stats.httpRequests ?? 0) - before;
    const domainsStatuses = answers.map((answer) => answer.status);
    rounds.push({ atMs, domainsStatus: domains.status, domainsStatuses, domains: domains.body, resolved, honestAsked });
    if (i + 1 < options.rounds) await new Promise((resolve) => setTimeout(resolve, options.everyMs));
  }
  return rounds;
}

/** `/domains` statuses as runs, e.g. `502×8 200×12`. */
export const statusRuns = (rounds: readonly SlotAttackRound[]): string => {
  const runs: [number, number][] = [];
  for (const { domainsStatus } of rounds) {
    const last = runs.at(-1);
    if (last && last[0] === domainsStatus) last[1]++;
    else runs.push([domainsStatus, 1]);
  }
  return runs.map(([status, count]) => `${status}×${count}`).join(" ");
};
