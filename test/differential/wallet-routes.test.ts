import { Connection, PublicKey } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deriveDomainKey } from "../../src/sns/derive.js";
import { type Tally, count } from "../../testkit/differential.js";
import { createRng, freshSeed } from "../../testkit/rng.js";
import { sdk } from "../../testkit/sdk.js";
import { type Stack, startStack } from "../../testkit/stack.js";
import { WALLET_LABELS, type WalletState, buildWalletLedger, generateWalletStates } from "../../testkit/wallet-gen.js";

/*
 * Differential test of the wallet and reverse routes: the official SDK
 * (3.0.26 over web3.js at commitment "processed", as upstream builds its
 * Connection) and the gateway over real HTTP read the same generated wallet
 * states, all in one ledger, and must agree through upstream's error table
 * (PROTOCOL §7.5), except where the gateway deliberately differs:
 *  - `/domains` lists registry-owned names first, then tokenized ones, each
 *    sorted by name account key: the SDK's set is compared in that order;
 *  - an undecodable primary account is 422 on `/primary-domain` (the SDK
 *    throws a generic error: 500 upstream) and null in a batch (the SDK
 *    fails the whole batch);
 *  - every RPC fault is 502 (not exercised here: the localnet is healthy).
 *
 * Seeds: a fixed one plus a fresh one per run, both printed; DIFF_SEED=<seed>
 * replays one seed (DIFF_COUNT states, default 1000).
 */

const FIXED_SEED = 20_261_124;
const CONCURRENCY = 16;
const MIN_PER_LABEL = 10;
const PHASE_TIMEOUT_MS = 120_000;

const envSeed = process.env.DIFF_SEED?.trim();
const seeds = envSeed ? [Number(envSeed)] : [FIXED_SEED, freshSeed()];
const perSeed = process.env.DIFF_COUNT ? Number(process.env.DIFF_COUNT) : envSeed ? 1000 : 500;
for (const seed of seeds) if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new Error(`bad DIFF_SEED ${envSeed}`);

interface Case {
  readonly seed: number;
  readonly state: WalletState;
}
const cases: Case[] = seeds.flatMap((seed) => generateWalletStates(createRng(seed), perSeed).map((state) => ({ seed, state })));
console.info(`differential wallet routes: seeds ${seeds.join(", ")} × ${perSeed} states (reproduce with DIFF_SEED=<seed>)`);

interface Outcome {
  readonly status: number;
  readonly body: unknown;
}
const ok = (result: unknown): Outcome => ({ status: 200, body: { s: "ok", result } });
const failure = (status: number, result: string): Outcome => ({ status, body: { s: "error", result } });

/** Upstream's answer for what an SDK call returned or threw (§7.5 rows 3, 9, 10, 12). */
async function upstream(run: () => Promise<unknown>, notFound = "Resource not found"): Promise<Outcome> {
  try {
    return ok(JSON.parse(JSON.stringify(await run())));
  } catch (thrown) {
    const type = (thrown as { type?: string }).type;
    if (type === "FavouriteDomainNotFound") return ok(null);
    if (type === "AccountDoesNotExist" || type === "NoAccountData" || type === "NftRecordNotFound") return failure(404, notFound);
    if (type === "InvalidRecordData" || type === "RecordMalformed" || type === "WrongValidation" || type === "InvalidRoA") {
      return failure(422, "Record is malformed");
    }
    return failure(500, "Internal error");
  }
}

const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
const pk = (address: string) => new PublicKey(address);

let stack: Stack;
let connection: Connection;

async function mapLimit<T>(items: readonly T[], limit: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await run(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

interface Mismatch {
  readonly route: string;
  readonly c: Case;
  readonly expected: unknown;
  readonly actual: unknown;
}
const mismatches: Mismatch[] = [];

async function compare(route: string, c: Case, expected: Outcome | Promise<Outcome>): Promise<void> {
  const [want, answer] = await Promise.all([expected, stack.get(route)]);
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

/** The SDK's registry-owned names with a reverse, then its tokenized names, each group by key. */
async function sdkDomains(wallet: string): Promise<Outcome> {
  return upstream(async () => {
    const keys = await sdk.getAllDomains(connection, pk(wallet));
    const reverses = await sdk.reverseLookupBatch(connection, keys);
    const direct = keys.flatMap((key, i) => (reverses[i] ? [{ domain: reverses[i], key: key.toBase58() }] : [])).sort(byKey);
    const tokenized = (await sdk.getTokenizedDomains(connection, pk(wallet)))
      .map((entry) => ({ domain: entry.reverse, key: entry.key.toBase58() }))
      .sort(byKey);
    return [...direct, ...tokenized];
  });
}

function sdkReverseLookup(key: string): Promise<Outcome> {
  return upstream(async () => {
    const { registry } = await sdk.NameRegistryState.retrieve(connection, pk(key));
    const isSub = !registry.parentName.equals(sdk.ROOT_DOMAIN_ACCOUNT);
    return sdk.reverseLookup(connection, pk(key), isSub ? registry.parentName : undefined);
  }, "Account not found");
}

beforeAll(async () => {
  stack = await startStack(buildWalletLedger(cases.map((c) => c.state)));
  connection = new Connection(stack.localnet.url, "processed");
});
afterAll(() => stack?.close());

describe(`wallet routes equal the SDK over ${cases.length} generated wallet states`, () => {
  it("covers every labelled case at least 10 times", () => {
    const tally: Tally = new Map();
    for (const { state } of cases) for (const label of state.labels) count(tally, label);
    for (const label of WALLET_LABELS) expect(tally.get(label) ?? 0, `label ${label}`).toBeGreaterThanOrEqual(MIN_PER_LABEL);
    expect(cases.length).toBeGreaterThanOrEqual(1000);
  });

  it(
    "/domain-key, /reverse-key, /reverse-lookup, /domains, /primary-domain and /subdomains",
    async () => {
      const lookups = { found: 0, missing: 0 };
      await mapLimit(cases, CONCURRENCY, async (c) => {
        const { state } = c;
        const jobs: Promise<void>[] = [
          compare(`/domains/${state.wallet}`, c, sdkDomains(state.wallet)),
          compare(
            `/primary-domain/${state.wallet}`,
            c,
            state.brokenPrimary
              ? failure(422, "Record is malformed")
              : upstream(() => sdk.getFavoriteDomain(connection, pk(state.wallet))),
          ),
          compare(`/favorite-domain/${state.wallet}`, c, state.brokenPrimary ? failure(422, "Record is malformed") : upstream(() => sdk.getFavoriteDomain(connection, pk(state.wallet)))),
        ];
        for (const name of state.lookups) {
          const key = deriveDomainKey(name);
          jobs.push(compare(`/domain-key/${name}`, c, ok(sdk.getDomainKeySync(name).pubkey.toBase58())));
          jobs.push(compare(`/reverse-key/${name}`, c, ok(sdk.getReverseKeySync(name, name.includes(".")).toBase58())));
          const expected = await sdkReverseLookup(key);
          if (expected.status === 200) lookups.found++;
          else lookups.missing++;
          jobs.push(compare(`/reverse-lookup/${key}`, c, expected));
        }
        for (const parent of state.parents) {
          jobs.push(compare(`/subdomains/${parent}`, c, upstream(() => sdk.findSubdomains(connection, pk(deriveDomainKey(parent))))));
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
      for (let i = 0; i < cases.length; ) {
        const size = rng.int(1, 30);
        batches.push(cases.slice(i, i + size));
        i += size;
      }
      let nonNull = 0;
      await mapLimit(batches, CONCURRENCY, async (batch) => {
        const healthy = batch.filter((c) => !c.state.brokenPrimary);
        const names = healthy.length > 0 ? await sdk.getMultipleFavoriteDomains(connection, healthy.map((c) => pk(c.state.wallet))) : [];
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
