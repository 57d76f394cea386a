import { freshSeed } from "./rng.js";

/**
 * Whether this run generates the differential suites' fixed seeds. A fixed seed's states are the same in
 * every run, so they run once per CI run: on the Node target (a file in test/gateway/ runs again on
 * workerd) and not where DIFF_FIXED_SEEDS=0 (.ci/run sets it for its second Node line). `npm test` alone
 * runs them once.
 */
export const WITH_FIXED_SEEDS = process.env.GATEWAY_TARGET !== "workerd" && process.env.DIFF_FIXED_SEEDS !== "0";

/**
 * The seeds of a run without a `DIFF_SEED` to replay: the suite's fixed seed where this run has it, and a
 * fresh one in every run (each suite prints its seeds, so a failure can be replayed).
 */
export function seedsOfThisRun(fixed: number): number[] {
  return WITH_FIXED_SEEDS ? [fixed, freshSeed()] : [freshSeed()];
}
