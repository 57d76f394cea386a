import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GeneratedState, buildLedger, createRng, freshSeed, generateStates } from "../../../testkit/chain-gen.js";
import { SdkOracle, type SdkObserved } from "../../../testkit/chain-gen/sdk-oracle.js";
import { mapLimit } from "../../../testkit/differential.js";
import { type HttpOutcome, expectedAnswer, sameSdkOutcome } from "../../../testkit/resolve-expectation.js";
import { type Stack, startStack } from "../../../testkit/stack.js";

/*
 * Differential test of the bulk routes: the official SDK's `resolve` (3.0.26
 * over web3.js, as the upstream proxy calls it) and `POST /resolve` over real
 * HTTP resolve the same generated chain states, all in one ledger, 1,000 names
 * to a request; every item must be the upstream proxy's answer for the SDK's
 * outcome, with the gateway's deliberate deviation for undecodable data (see
 * test/gateway/differential/resolve.test.ts). The generator's prediction is checked
 * too. A fresh seed per run, printed; DIFF_SEED=<seed> replays one.
 */

const seed = process.env.DIFF_SEED ? Number(process.env.DIFF_SEED) : freshSeed();
const COUNT = process.env.DIFF_COUNT ? Number(process.env.DIFF_COUNT) : 1000;
const states: GeneratedState[] = generateStates(createRng(seed), COUNT);
console.info(`differential bulk resolve: seed ${seed} × ${COUNT} states (reproduce with DIFF_SEED=${seed})`);

const PHASE_TIMEOUT_MS = 180_000;
let stack: Stack;
let oracle: SdkOracle;
const sdk = new Map<GeneratedState, SdkObserved>();

beforeAll(async () => {
  [oracle, stack] = await Promise.all([SdkOracle.start(), startStack(buildLedger(states))]);
  await mapLimit(states, 16, async (state) => {
    sdk.set(state, await oracle.resolve(stack.localnet.url, `${state.name}.sol`));
  });
}, PHASE_TIMEOUT_MS);

afterAll(async () => {
  await oracle?.close();
  await stack?.close();
});

interface Item {
  readonly domain: string;
  readonly status: number;
  readonly s: string;
  readonly result: string;
}

/** Every state's name with `suffix`, 1,000 to a request; items in state order. */
async function bulkItems(route: string, suffix: string): Promise<Item[]> {
  const items: Item[] = [];
  for (let at = 0; at < states.length; at += 1000) {
    const domains = states.slice(at, at + 1000).map((state) => `${state.name}${suffix}`);
    const answer = await stack.get(route, { method: "POST", body: JSON.stringify({ domains }) });
    expect(answer.status).toBe(200);
    items.push(...(answer.body as { result: Item[] }).result);
  }
  return items;
}

const asOutcome = (item: Item): HttpOutcome => ({ status: item.status, body: { s: item.s, result: item.result } });

describe(`bulk resolve: gateway vs official SDK on ${COUNT} generated states`, () => {
  it.each([
    ["/resolve", ".sns"],
    ["/resolve", ".sol"],
    ["/safe-resolve", ".sns"],
  ])(
    "POST %s with every name as <name>%s",
    async (route, suffix) => {
      expect(states.length).toBeGreaterThanOrEqual(1000);
      const items = await bulkItems(route, suffix);
      const mismatches = states.flatMap((state, i) => {
        const observed = sdk.get(state)!;
        const expected = expectedAnswer(observed, state.expected.none);
        const got = asOutcome(items[i]!);
        const problems = [];
        if (!sameSdkOutcome(observed, state.expected.none.sdk)) problems.push("generator≠SDK");
        if (items[i]!.domain !== `${state.name}${suffix}`) problems.push("domain not echoed");
        if (JSON.stringify(got) !== JSON.stringify(expected)) problems.push("gateway≠SDK");
        return problems.map(
          (what) =>
            `${what}: seed ${seed} #${i} ${state.label} ${JSON.stringify(state.name)} sdk ${JSON.stringify(observed)} got ${JSON.stringify(got)} expected ${JSON.stringify(expected)}`,
        );
      });
      expect(mismatches.slice(0, 10), `${mismatches.length} disagreement(s), seed ${seed}`).toEqual([]);
      const statuses = new Set(items.map((item) => item.status));
      for (const status of [200, 404, 422, 500]) expect(statuses, `seed ${seed}`).toContain(status);
    },
    PHASE_TIMEOUT_MS,
  );
});
