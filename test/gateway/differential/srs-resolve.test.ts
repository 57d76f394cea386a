import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Ledger, type Localnet, startLocalnet } from "../../../src/localnet/index.js";
import { count, expectReached, mapLimit, type Tally, withContext } from "../../../testkit/differential.js";
import { seedsOfThisRun } from "../../../testkit/differential-seeds.js";
import { createRng } from "../../../testkit/rng.js";
import { SRS_ALLOWED_PROGRAM, SRS_TOKEN_DEFECTS, type SrsState, generateSrsStates } from "../../../testkit/srs-gen.js";
import {
  Connection,
  type ReferenceOutcome,
  type ReferencePolicy,
  referenceRegistryOwner,
  referenceResolveSrs,
} from "../../../testkit/srs-reference.js";
import { type TestGateway, request, startTestGateway } from "../../../testkit/stack.js";

/*
 * Differential test of SRS-backed `.sol` resolution: the official SDK on npm
 * has no SRS, so the oracle is testkit/srs-reference.ts, a resolver written
 * from the protocol description alone (web3.js reads, its own layout
 * reading, no code from src/). Generated SRS states (testkit/srs-gen.ts), all
 * in one ledger, are resolved by the gateway over real HTTP under each PDA
 * policy (`/resolve`) and cross-checked (`/safe-resolve`, against the plain
 * registry-owned `.sns` name the state may carry), and must get the answer
 * the reference's outcome maps to.
 *
 * Seeds: the fixed one where this run has it (testkit/differential-seeds.ts: once
 * per CI run) plus a fresh one, each printed; a seed alone (a fresh one elsewhere,
 * DIFF_SEED=<seed> to replay) has 1000 states (DIFF_COUNT overrides).
 */

const FIXED_SEED = 20_261_125;
const envSeed = process.env.DIFF_SEED?.trim();
const seeds = envSeed ? [Number(envSeed)] : seedsOfThisRun(FIXED_SEED);
const perSeed = process.env.DIFF_COUNT ? Number(process.env.DIFF_COUNT) : seeds.length === 1 ? 1000 : 500;
if (
  seeds.some((seed) => !Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) ||
  !Number.isInteger(perSeed) ||
  perSeed < 1
) {
  throw new Error("DIFF_SEED must be a u32 and DIFF_COUNT a positive integer");
}

interface Case {
  readonly seed: number;
  readonly index: number;
  readonly state: SrsState;
}
const cases: Case[] = seeds.flatMap((seed) =>
  generateSrsStates(createRng(seed), perSeed, `g${seed}`).map((state, index) => ({ seed, index, state })),
);
console.info(
  `differential SRS resolve: seeds ${seeds.join(", ")} × ${perSeed} states (reproduce with DIFF_SEED=<seed>)`,
);

const POLICIES = {
  none: { env: {}, reference: { allowPda: false } },
  any: { env: { ALLOW_PDA_OWNERS: "any" }, reference: { allowPda: "any" } },
  programs: {
    env: { ALLOW_PDA_OWNERS: SRS_ALLOWED_PROGRAM },
    reference: { allowPda: true, programIds: [SRS_ALLOWED_PROGRAM] },
  },
} as const satisfies Record<string, { env: Record<string, string>; reference: ReferencePolicy }>;
type PolicyName = keyof typeof POLICIES;

interface HttpOutcome {
  readonly status: number;
  readonly body: unknown;
}
const failure = (status: number, result: string): HttpOutcome => ({ status, body: { s: "error", result } });

/** The answer an outcome maps to (the gateway's table: 410 for an expired record, 502 for every RPC fault). */
function expectedAnswer(outcome: ReferenceOutcome): HttpOutcome {
  switch (outcome.kind) {
    case "key":
      return { status: 200, body: { s: "ok", result: outcome.key } };
    case "DomainDoesNotExist":
      return failure(404, "Domain not found");
    case "RecordMalformed":
      return failure(422, "Record is malformed");
    case "DomainExpired":
      return failure(410, "Domain expired");
    case "PdaOwnerNotAllowed":
    case "CouldNotFindSrsOwner":
      return failure(500, "Internal error");
    case "RpcError":
      return failure(502, "RPC unavailable");
  }
}

/** Cross-check: the SRS side's failure first, then the name service's, then the keys must agree. */
function expectedSafeAnswer(srs: ReferenceOutcome, sns: ReferenceOutcome): HttpOutcome {
  if (srs.kind !== "key") return expectedAnswer(srs);
  if (sns.kind !== "key") return expectedAnswer(sns);
  return srs.key === sns.key ? expectedAnswer(srs) : failure(409, "SRS and SNS resolution mismatch");
}

let localnet: Localnet;
let connection: Connection;
const gateways = {} as Record<PolicyName, TestGateway>;

beforeAll(async () => {
  const ledger = new Ledger();
  const now = Math.floor(Date.now() / 1000);
  for (const { state } of cases) state.write(ledger, now);
  localnet = await startLocalnet({ ledger });
  connection = new Connection(localnet.url, "processed");
  await Promise.all(
    (Object.keys(POLICIES) as PolicyName[]).map(async (policy) => {
      gateways[policy] = await startTestGateway({
        RPC_URL: localnet.url,
        SOL_SRS_RESOLUTION: "on",
        ...POLICIES[policy].env,
      });
    }),
  );
}, 120_000);

afterAll(async () => {
  await Promise.all(Object.values(gateways).map((gateway) => gateway.close()));
  await localnet?.close();
});

async function answerOf(gateway: TestGateway, path: string): Promise<HttpOutcome> {
  const answer = await request(gateway.url, path);
  return { status: answer.status, body: answer.body ?? answer.text };
}

describe("SRS resolution: the gateway against the reference resolver", () => {
  it(`agrees on ${cases.length} generated states under every PDA policy, /resolve and /safe-resolve`, async () => {
    const statuses: Tally = new Map();
    const shapes: Tally = new Map();
    await mapLimit(cases, 16, async ({ seed, index, state }) => {
      const path = encodeURIComponent(state.name);
      await withContext(`seed=${seed} state #${index} ${state.name} (${state.shape})`, async () => {
        const [record, , , owner, defect] = state.shape.split("/");
        count(shapes, record!);
        if (owner === "token") count(shapes, `token/${defect}`);
        for (const policy of Object.keys(POLICIES) as PolicyName[]) {
          const now = () => Math.floor(Date.now() / 1000);
          const reference = await referenceResolveSrs(connection, state.name, POLICIES[policy].reference, now());
          const answer = await answerOf(gateways[policy], `/resolve/${path}.sol`);
          expect(answer, `/resolve under ${policy}: reference ${reference.kind}`).toEqual(expectedAnswer(reference));
          count(statuses, `resolve ${answer.status}`);
          if (policy !== "none") continue;
          const sns = state.name.includes(".")
            ? ({ kind: "DomainDoesNotExist" } as const)
            : await referenceRegistryOwner(connection, state.name);
          const safe = await answerOf(gateways.none, `/safe-resolve/${path}.sol`);
          expect(safe, `/safe-resolve: SRS ${reference.kind}, SNS ${sns.kind}`).toEqual(
            expectedSafeAnswer(reference, sns),
          );
          count(statuses, `safe ${safe.status}`);
        }
      });
    });
    console.info(`differential SRS resolve: ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
    for (const seed of seeds) {
      expectReached(
        statuses,
        ["resolve 200", "resolve 404", "resolve 410", "resolve 422", "resolve 500", "safe 200", "safe 409"],
        seed,
      );
    }
    expectReached(shapes, ["valid", "missing", "foreign", "short", "discriminator", "class", "owner-type"], seeds[0]!);
    // Every token defect is reached by the fixed seed's states (the Node run); a fresh seed's states may miss
    // a rare one (seed 2237768590 reaches no "holder-classic"), and are checked for agreement only.
    if (seeds[0] === FIXED_SEED) {
      expectReached(
        shapes,
        SRS_TOKEN_DEFECTS.map((defect) => `token/${defect}`),
        seeds[0],
      );
    }
  }, 600_000);
});
