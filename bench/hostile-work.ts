import { DEMO_FIXTURE_PATH, identity, loadFixtureFile, startLocalnet } from "../src/localnet/index.js";
import { attackWithProbes } from "../testkit/attack-probe.js";
import { startChildGateway } from "../testkit/child-gateway.js";
import { type ListingKind, startListingRpc } from "../testkit/hostile-rpc.js";

// One request naming a lying JSON-RPC server that lists N children, N mints or N registry-owned names,
// against the gateway as `npm start` runs it (a child process, its node flags), with a `GET /health`
// every 50 ms meanwhile. Per attack: status, time, JSON-RPC calls the lying server received, the worst
// /health wait and the child's peak RSS (a fresh child per attack).
//   npx tsx bench/hostile-work.ts                 this tree
//   HOSTILE_ENTRY=<dir>/platform/node.js …        another build (e.g. an older commit compiled with tsc)
//   HOSTILE_SIZES=30000,100000                    list lengths (default 1000,40000,100000)

const MB = 1024 * 1024;
const sizes = (process.env.HOSTILE_SIZES ?? "1000,40000,100000").split(",").map(Number);
const entry = process.env.HOSTILE_ENTRY;
const wallet = identity("alice").address;
const attacks: Record<ListingKind, string> = {
  children: "/subdomains/bonfida",
  mints: `/domains/${wallet}`,
  owned: `/domains/${wallet}`,
};

const localnet = await startLocalnet({ ledger: await loadFixtureFile(DEMO_FIXTURE_PATH) });
const listing = await startListingRpc();
console.log("| attack | N | status | ms | RPC calls | RPC bytes | /health worst ms | peak RSS MB |");
console.log("| --- | --- | --- | --- | --- | --- | --- | --- |");
for (const [kind, path] of Object.entries(attacks) as [ListingKind, string][]) {
  for (const size of sizes) {
    const env = { RPC_URL: localnet.url, ALLOW_PRIVATE_RPC_OVERRIDE: "true" };
    const gateway = await startChildGateway(env, ...(entry ? [entry] : []));
    try {
      listing.resetStats();
      const outcome = await attackWithProbes(
        gateway.url,
        `${path}?rpc=${encodeURIComponent(listing.urlFor(kind, size))}`,
      );
      const result =
        outcome.status === 200
          ? `200 (${(outcome.body as { result: unknown[] }).result.length} items)`
          : `${outcome.status} ${JSON.stringify((outcome.body as { result?: unknown })?.result ?? outcome.body)}`;
      console.log(
        `| ${kind} | ${size} | ${result} | ${Math.round(outcome.ms)} | ${listing.stats.calls} | ${(listing.stats.bytesSent / MB).toFixed(1)} MB | ${Math.round(outcome.healthWorstMs)} | ${(gateway.peakRss() / MB).toFixed(1)} |`,
      );
    } finally {
      await gateway.stop();
    }
  }
}
await listing.close();
await localnet.close();
