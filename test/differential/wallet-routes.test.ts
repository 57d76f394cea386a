import { afterAll, beforeAll, expect, it } from "vitest";
import { deriveDomainKey } from "../../src/sns/derive.js";
import { type Tally, count, mapLimit } from "../../testkit/differential.js";
import { seedsOfThisRun } from "../../testkit/differential-seeds.js";
import { createRng } from "../../testkit/rng.js";
import { sdk } from "../../testkit/sdk.js";
import {
  type Stack,
  type TestGateway,
  request,
  startStack,
  startTestGateway,
  describeOnNode,
} from "../../testkit/stack.js";
import { type SdkWalletCall, SdkWalletOracle } from "../../testkit/wallet-sdk.js";
import { WALLET_LABELS, type WalletState, buildWalletLedger, generateWalletStates } from "../../testkit/wallet-gen.js";

/*
 * Differential test of the wallet and reverse routes: the official SDK
 * (3.0.26 over web3.js at commitment "processed", as upstream builds its
 * Connection) and the gateway over real HTTP read the same generated wallet
 * states, all in one ledger, and must agree through upstream's error table
 * (as bench/baseline/app.ts answers), except where the gateway deliberately differs:
 *  - `/domains` lists registry-owned names first, then tokenized ones, each
 *    sorted by name account key: the SDK's set is compared in that order;
 *  - an undecodable primary account is 422 on `/primary-domain` (the SDK
 *    throws a generic error: 500 upstream) and null in a batch (the SDK
 *    fails the whole batch);
 *  - every RPC fault is 502 (not exercised here: the localnet is healthy).
 *
 * Seeds: the fixed one where this run has it (testkit/differential-seeds.ts: once
 * per CI run) plus a fresh one, each printed; a seed alone (a fresh one elsewhere,
 * DIFF_SEED=<seed> to replay) has DIFF_COUNT states, default 1000.
 */

const FIXED_SEED = 20_261_124;
const CONCURRENCY = 16;
const MIN_PER_LABEL = 10;
/** `/domains` is asked twice per state (index and scan path): on a loaded 2-core machine a phase takes minutes. */
const PHASE_TIMEOUT_MS = 300_000;

const envSeed = process.env.DIFF_SEED?.trim();
const seeds = envSeed ? [Number(envSeed)] : seedsOfThisRun(FIXED_SEED);
const perSeed = process.env.DIFF_COUNT ? Number(process.env.DIFF_COUNT) : seeds.length === 1 ? 1000 : 500;
for (const seed of seeds)
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new Error(`bad DIFF_SEED ${envSeed}`);

/**
 * States per ledger. Program scans (every `/domains` and `/subdomains`, and
 * the SDK's) read every account of the program, so one ledger of all states
 * would make the run quadratic in the number of states.
 */
const STATES_PER_LEDGER = 125;

interface Case {
  readonly seed: number;
  readonly state: WalletState;
  readonly shard: number;
}
const cases: Case[] = seeds
  .flatMap((seed) => generateWalletStates(createRng(seed), perSeed).map((state) => ({ seed, state })))
  .map((c, i) => ({ ...c, shard: Math.floor(i / STATES_PER_LEDGER) }));
console.info(
  `differential wallet routes: seeds ${seeds.join(", ")} × ${perSeed} states (reproduce with DIFF_SEED=<seed>)`,
);

interface Outcome {
  readonly status: number;
  readonly body: unknown;
}
const ok = (result: unknown): Outcome => ({ status: 200, body: { s: "ok", result } });
const failure = (status: number, result: string): Outcome => ({ status, body: { s: "error", result } });

/** Upstream's answer for what the SDK returned or threw (its not-found, invalid-input and unknown-error rows). */
async function upstream(c: Case, call: SdkWalletCall, notFound = "Resource not found"): Promise<Outcome> {
  const outcome = await oracle.run(stacks[c.shard]!.localnet.url, call);
  if (outcome.ok) return ok(outcome.value);
  switch (outcome.type) {
    case "FavouriteDomainNotFound":
      return ok(null);
    case "AccountDoesNotExist":
    case "NoAccountData":
    case "NftRecordNotFound":
      return failure(404, notFound);
    case "InvalidRecordData":
    case "RecordMalformed":
    case "WrongValidation":
    case "InvalidRoA":
      return failure(422, "Record is malformed");
    default:
      return failure(500, "Internal error");
  }
}

const stacks: Stack[] = [];
/** Per shard, a gateway on the same localnet without the tokenized index: `/domains` by the scan path. */
const scanning: TestGateway[] = [];
let oracle: SdkWalletOracle;

interface Mismatch {
  readonly route: string;
  readonly c: Case;
  readonly expected: unknown;
  readonly actual: unknown;
}
const mismatches: Mismatch[] = [];

async function compare(route: string, c: Case, expected: Outcome | Promise<Outcome>, scanPath = false): Promise<void> {
  const gateway = scanPath ? scanning[c.shard]!.url : stacks[c.shard]!.gateway.url;
  const [want, answer] = await Promise.all([expected, request(gateway, route)]);
  const actual = { status: answer.status, body: answer.body ?? answer.text };
  if (JSON.stringify(actual) !== JSON.stringify(want)) mismatches.push({ route, c, expected: want, actual });
}

function report(): string {
  return (
    `${mismatches.length} disagreement(s) (seeds ${seeds.join(", ")}):\n` +
    mismatches
      .slice(0, 12)
      .map(
        (m) =>
          `- ${m.route}: DIFF_SEED=${m.c.seed} state #${m.c.state.index} labels ${[...m.c.state.labels].join(",")}\n` +
          `    expected ${JSON.stringify(m.expected)}\n    actual   ${JSON.stringify(m.actual)}`,
      )
      .join("\n")
  );
}

beforeAll(async () => {
  oracle = await SdkWalletOracle.start();
  const shards = Math.ceil(cases.length / STATES_PER_LEDGER);
  for (let shard = 0; shard < shards; shard++) {
    const states = cases.filter((c) => c.shard === shard).map((c) => c.state);
    const stack = await startStack(buildWalletLedger(states));
    stacks.push(stack);
    scanning.push(await startTestGateway({ RPC_URL: stack.localnet.url, TOKENIZED_INDEX: "off" }));
  }
});
afterAll(async () => {
  await oracle?.close();
  await Promise.all(scanning.map((gateway) => gateway.close()));
  await Promise.all(stacks.map((stack) => stack.close()));
});

describeOnNode(`wallet routes equal the SDK over ${cases.length} generated wallet states`, () => {
  it("covers every labelled case at least 10 times", () => {
    const tally: Tally = new Map();
    for (const { state } of cases) for (const label of state.labels) count(tally, label);
    for (const label of WALLET_LABELS)
      expect(tally.get(label) ?? 0, `label ${label}`).toBeGreaterThanOrEqual(MIN_PER_LABEL);
    expect(cases.length).toBeGreaterThanOrEqual(1000);
  });

  it(
    "/domain-key, /reverse-key, /reverse-lookup, /domains, /primary-domain and /subdomains",
    async () => {
      const lookups = { found: 0, missing: 0 };
      await mapLimit(cases, CONCURRENCY, async (c) => {
        const { state } = c;
        const primary = state.brokenPrimary
          ? failure(422, "Record is malformed")
          : upstream(c, { op: "favorite", wallet: state.wallet });
        const domains = upstream(c, { op: "domains", wallet: state.wallet });
        const jobs: Promise<void>[] = [
          // The tokenized index and the per-request scan give the same answer.
          compare(`/domains/${state.wallet}`, c, domains),
          compare(`/domains/${state.wallet}`, c, domains, true),
          compare(`/primary-domain/${state.wallet}`, c, primary),
          compare(`/favorite-domain/${state.wallet}`, c, primary),
        ];
        for (const [i, name] of state.lookups.entries()) {
          const key = deriveDomainKey(name);
          if (i === 0) {
            // Pure derivations, by the SDK in this thread: one name per state is plenty.
            jobs.push(compare(`/domain-key/${name}`, c, ok(sdk.getDomainKeySync(name).pubkey.toBase58())));
            jobs.push(
              compare(`/reverse-key/${name}`, c, ok(sdk.getReverseKeySync(name, name.includes(".")).toBase58())),
            );
          }
          const expected = upstream(c, { op: "reverseLookup", key }, "Account not found");
          jobs.push(
            compare(`/reverse-lookup/${key}`, c, expected),
            expected.then(({ status }) => void (status === 200 ? lookups.found++ : lookups.missing++)),
          );
        }
        for (const parent of state.parents) {
          jobs.push(
            compare(`/subdomains/${parent}`, c, upstream(c, { op: "subdomains", parentKey: deriveDomainKey(parent) })),
          );
        }
        await Promise.all(jobs);
      });
      expect(mismatches, report()).toEqual([]);
      expect(lookups.found).toBeGreaterThanOrEqual(MIN_PER_LABEL);
      expect(lookups.missing).toBeGreaterThanOrEqual(MIN_PER_LABEL);
    },
    PHASE_TIMEOUT_MS,
  );

  it(
    "/multiple-primary-domains over batches of 1–30 wallets; a broken wallet's item is null",
    async () => {
      const rng = createRng(seeds[0]! ^ 0x5eed);
      const batches: Case[][] = [];
      for (let i = 0; i < cases.length;) {
        const size = rng.int(1, 30);
        const batch = cases.slice(i, i + size).filter((c) => c.shard === cases[i]!.shard);
        batches.push(batch);
        i += batch.length;
      }
      let nonNull = 0;
      await mapLimit(batches, CONCURRENCY, async (batch) => {
        const healthy = batch.filter((c) => !c.state.brokenPrimary);
        const sdkBatch =
          healthy.length > 0
            ? await upstream(batch[0]!, { op: "multipleFavorites", wallets: healthy.map((c) => c.state.wallet) })
            : ok([]);
        const names = (sdkBatch.body as { result: (string | null)[] }).result;
        const byCase = new Map(healthy.map((c, i) => [c, names[i] ?? null]));
        const expected = batch.map((c) => byCase.get(c) ?? null);
        nonNull += expected.filter((name) => name !== null).length;
        const wallets = batch.map((c) => c.state.wallet).join(",");
        await compare(`/multiple-primary-domains/${wallets}`, batch[0]!, ok(expected));
      });
      expect(mismatches, report()).toEqual([]);
      expect(nonNull).toBeGreaterThanOrEqual(MIN_PER_LABEL);
    },
    PHASE_TIMEOUT_MS,
  );
});
