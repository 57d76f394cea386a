import type { Address } from "@solana/kit";
import { Agent } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_FIXTURE_PATH, loadFixtureFile } from "../../src/localnet/index.js";
import { type Localnet, startLocalnet } from "../../src/localnet/server.js";
import type { SettlePacing } from "../../src/rpc/account-loader.js";
import { deriveResolutionKeys } from "../../src/sns/derive.js";
import { testEndpoint } from "../../testkit/rpc-endpoint.js";

// What a batch reply tells its endpoint's pacing (platform/node/settle-pacing.ts): each endpoint's loader
// makes a pacing of its own, and hands it the time from the batch's flush to its reply, or nothing when no
// call of the reply succeeded (a failure says nothing of how far the node is).

const LATENCY_MS = 15;
let localnet: Localnet;
let dispatcher: Agent;
beforeAll(async () => {
  localnet = await startLocalnet({ ledger: await loadFixtureFile(DEMO_FIXTURE_PATH), latencyMs: LATENCY_MS });
  dispatcher = new Agent();
});
afterAll(async () => {
  await dispatcher.close();
  await localnet.close();
});

/** A pacing factory that settles every reply at once and keeps what each pacing it made was told. */
function recordingPacing(): { factory: () => SettlePacing; told: (number | undefined)[][] } {
  const told: (number | undefined)[][] = [];
  const factory = () => {
    const mine: (number | undefined)[] = [];
    told.push(mine);
    return {
      slice(roundTripMs: number | undefined) {
        mine.push(roundTripMs);
        return 0;
      },
      yieldToIo: (task: () => void) => {
        const immediate = setImmediate(task);
        return () => clearImmediate(immediate);
      },
    };
  };
  return { factory, told };
}

const endpointWith = (pacing: () => SettlePacing) => testEndpoint(localnet.url, dispatcher, { pacing });

describe("the round trips a loader hands its pacing", () => {
  it("makes one pacing per endpoint, told each successful reply's time from flush to reply", async () => {
    const { factory, told } = recordingPacing();
    const first = endpointWith(factory);
    const second = endpointWith(factory);
    expect(told).toHaveLength(2);
    const { domain } = deriveResolutionKeys("bonfida");
    await first.getAccounts([domain]);
    await second.getAccounts([domain]);
    await second.getAccounts([domain]);
    expect(told.map((mine) => mine.length)).toEqual([1, 2]);
    for (const roundTrip of told.flat()) expect(roundTrip).toBeGreaterThanOrEqual(LATENCY_MS - 1);
  });

  it("tells nothing of a reply whose every call failed", async () => {
    const { factory, told } = recordingPacing();
    const endpoint = endpointWith(factory);
    // Not a key: the node answers the call with a JSON-RPC error.
    await expect(endpoint.getAccounts(["not-a-key" as Address])).rejects.toThrow();
    expect(told).toEqual([[undefined]]);
  });
});
