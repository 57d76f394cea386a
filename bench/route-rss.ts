import { DEMO_FIXTURE_PATH, identity, loadFixtureFile, startLocalnet } from "../src/localnet/index.js";
import { startChildGateway } from "../testkit/child-gateway.js";
import { startListingRpc } from "../testkit/hostile-rpc.js";
import { burst, burstAgent, countedStatuses, heavyRoutes } from "../testkit/burst.js";

// Peak RSS of the gateway as `npm start` runs it (a fresh child process per route) through bursts of 1,024
// concurrent connections, each with one request of that route in flight: what the README's memory
// statement is about, route by route. Statuses are counted (503 = refused by a route's bulkhead).
//   npx tsx bench/route-rss.ts              HOSTILE_ENTRY=<dir>/platform/node.js for another build

const CONNECTIONS = Number(process.env.ROUTE_RSS_CONNECTIONS ?? 1024);
const BURSTS = Number(process.env.ROUTE_RSS_BURSTS ?? 4);
const MB = 1024 * 1024;
const localnet = await startLocalnet({ ledger: await loadFixtureFile(DEMO_FIXTURE_PATH) });
const listing = await startListingRpc();
const routes: Record<string, (i: number) => string> = {
  "/resolve (mixed)": (i) => `/resolve/${["bonfida.sns", "v2-sol.sns", "plain.sns", "dex.bonfida.sns"][i % 4]}`,
  ...heavyRoutes(listing.urlFor("owned", 1_000, "rss")),
  "/domains (RPC_URL)": () => `/domains/${identity("alice").address}`,
  "/subdomains": () => "/subdomains/bonfida",
};
const only = process.env.ROUTE_RSS_ONLY;
console.log(`| route | statuses | peak RSS MB | burst ms |`);
console.log(`| --- | --- | --- | --- |`);
for (const [name, pathFor] of Object.entries(routes)) {
  if (only && !name.includes(only)) continue;
  const gateway = await startChildGateway(
    { RPC_URL: localnet.url, ALLOW_PRIVATE_RPC_OVERRIDE: "true", RPC_OVERRIDE_RATE_LIMIT: "0" },
    ...(process.env.HOSTILE_ENTRY ? [process.env.HOSTILE_ENTRY] : []),
  );
  const agent = burstAgent(CONNECTIONS);
  const statuses = new Map<number, number>();
  let slowest = 0;
  try {
    for (let round = 0; round < BURSTS; round++) {
      const outcome = await burst(agent, gateway.url, CONNECTIONS, pathFor);
      for (const [status, n] of outcome.statuses) statuses.set(status, (statuses.get(status) ?? 0) + n);
      slowest = Math.max(slowest, outcome.ms);
    }
    console.log(
      `| ${name} | ${countedStatuses(statuses)} | ${(gateway.peakRss() / MB).toFixed(1)} | ${Math.round(slowest)} |`,
    );
  } finally {
    await agent.close();
    await gateway.stop();
  }
}
await listing.close();
await localnet.close();
