import { Ledger, type TokenBalance } from "../../src/localnet/index.js";
import type { GeneratedState } from "./types.js";

// The generated states as one localnet ledger.

/** A ledger whose `getTokenLargestAccounts` can be told what to answer for chosen mints. */
export class GeneratedLedger extends Ledger {
  readonly #largest = new Map<string, readonly TokenBalance[]>();

  overrideLargestAccounts(mint: string, balances: readonly TokenBalance[]): void {
    this.#largest.set(mint, balances);
  }

  override tokenLargestAccounts(mint: string): TokenBalance[] {
    const forced = this.#largest.get(mint);
    return forced ? forced.slice() : super.tokenLargestAccounts(mint);
  }
}

/**
 * One ledger holding every state. Throws if two states (or two layers of one
 * state) write the same address, since states must not influence each other.
 */
export function buildLedger(states: readonly GeneratedState[], options: { slot?: number } = {}): GeneratedLedger {
  const ledger = new GeneratedLedger(options.slot === undefined ? {} : { slot: options.slot });
  const writtenBy = new Map<string, string>();
  for (const state of states) {
    for (const { address, account } of state.accounts) {
      const previous = writtenBy.get(address);
      if (previous !== undefined) {
        throw new Error(`address ${address} written by both ${previous} and ${state.name} (${state.label})`);
      }
      writtenBy.set(address, `${state.name} (${state.label})`);
      ledger.setAccount(address, account);
    }
    const forced = state.largestAccounts;
    if (forced) ledger.overrideLargestAccounts(forced.mint, forced.balances);
  }
  return ledger;
}
