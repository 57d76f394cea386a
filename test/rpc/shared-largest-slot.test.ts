import { Agent } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_FIXTURE_PATH, loadFixtureFile } from "../../src/localnet/index.js";
import { type Localnet, startLocalnet } from "../../src/localnet/server.js";
import { RequestBudget } from "../../src/rpc/request-budget.js";
import { deriveResolutionKeys } from "../../src/sns/derive.js";
import { testEndpoint } from "../../testkit/rpc-endpoint.js";

// Requests that share one getTokenLargestAccounts call (a mint asked for by two at once) each used its
// answer: each notes its slot (X-Context-Slot), not only the one that first asked.

let localnet: Localnet;
let dispatcher: Agent;
beforeAll(async () => {
  localnet = await startLocalnet({ ledger: await loadFixtureFile(DEMO_FIXTURE_PATH) });
  dispatcher = new Agent();
});
afterAll(async () => {
  await dispatcher.close();
  await localnet.close();
});

const LIMITS = { deadlineMs: 10_000, maxCalls: 1_000, maxBytes: 1 << 30, maxItems: 1_000_000 };

describe("a shared getTokenLargestAccounts call", () => {
  it("notes the slot of its answer on every request that asked for it", async () => {
    const endpoint = testEndpoint(localnet.url, dispatcher);
    localnet.ledger.slot = 300_400_000;
    const { mint } = deriveResolutionKeys("bonfida");
    const first = new RequestBudget(LIMITS);
    const second = new RequestBudget(LIMITS);
    const [a, b] = await Promise.all([
      endpoint.getTokenLargestAccounts(mint, first),
      endpoint.getTokenLargestAccounts(mint, second),
    ]);
    expect(b).toBe(a);
    expect(localnet.stats.methods.getTokenLargestAccounts).toBe(1);
    expect(first.lowestSlot).toBe(300_400_000);
    expect(second.lowestSlot).toBe(300_400_000);
  });
});
