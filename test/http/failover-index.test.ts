import { afterAll, beforeAll, expect, it } from "vitest";
import {
  Ledger,
  type Localnet,
  buildDomainAccounts,
  identity,
  startLocalnet,
  tokenizeDomain,
} from "../../src/localnet/index.js";
import { deriveDomainKey } from "../../src/sns/derive.js";
import { type TestGateway, request, startTestGateway, describeOnNode } from "../../testkit/stack.js";

// The tokenized index over several endpoints, one of which lags: three
// ledgers built alike, where the lagging one does not see the last
// tokenization. Once the gateway has answered from a chain state, no
// endpoint behind it may make `/domains` answer an older one.

const alice = identity("alice").address;
const bob = identity("bob").address;

function chain(): Ledger {
  const ledger = new Ledger();
  for (const name of ["art", "music"]) {
    for (const { address, account } of buildDomainAccounts({ name, owner: alice })) ledger.setAccount(address, account);
  }
  return ledger;
}

const ledgers = { fresh: chain(), lagging: chain(), spare: chain() };
let fresh: Localnet;
let lagging: Localnet;
let spare: Localnet;
let gateway: TestGateway;

beforeAll(async () => {
  const localnets = await Promise.all(
    [ledgers.fresh, ledgers.lagging, ledgers.spare].map((ledger) => startLocalnet({ ledger })),
  );
  [fresh, lagging, spare] = [localnets[0]!, localnets[1]!, localnets[2]!];
  gateway = await startTestGateway({ RPC_URL: [fresh.url, lagging.url, spare.url].join(","), RPC_TIMEOUT_MS: "2000" });
});
afterAll(async () => {
  await gateway.close();
  await Promise.all([fresh, lagging, spare].map((localnet) => localnet.close()));
});

const domainsOf = async (wallet: string) => {
  const answer = await request(gateway.url, `/domains/${wallet}`);
  expect(answer.status).toBe(200);
  return (answer.body as { result: { domain: string }[] }).result.map((entry) => entry.domain);
};

describeOnNode("a lagging endpoint", () => {
  it("never makes /domains go backwards", async () => {
    expect(await domainsOf(bob)).toEqual([]);
    const art = deriveDomainKey("art");
    tokenizeDomain(ledgers.fresh, { domainKey: art, holder: bob });
    tokenizeDomain(ledgers.spare, { domainKey: art, holder: bob });
    expect(await domainsOf(bob)).toEqual(["art"]);
    // The first endpoint goes down; the second is behind the slot already answered, the third is not.
    fresh.setFault({ kind: "http-status", status: 503 });
    lagging.resetStats();
    spare.resetStats();
    for (let i = 0; i < 3; i++) expect(await domainsOf(bob)).toEqual(["art"]);
    expect(lagging.stats.methods.getProgramAccounts).toBeGreaterThan(0);
    expect(spare.stats.methods.getProgramAccounts).toBeGreaterThan(0);
    fresh.setFault(null);
  });
});
