import { Agent, request } from "undici";
import { identity } from "../src/localnet/index.js";

/** Keep-alive connections for bursts: one per request in flight. */
export const burstAgent = (connections: number): Agent =>
  new Agent({ connections, pipelining: 1, keepAliveTimeout: 30_000 });

/**
 * `count` requests at once, request i to `pathFor(i)`, each on its own connection of `agent`: statuses
 * counted (0: no answer) and the time the slowest took.
 */
export async function burst(
  agent: Agent,
  base: string,
  count: number,
  pathFor: (i: number) => string,
): Promise<{ readonly statuses: Map<number, number>; readonly ms: number }> {
  const statuses = new Map<number, number>();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const answer = await request(`${base}${pathFor(i)}`, {
        dispatcher: agent,
        headersTimeout: 120_000,
        bodyTimeout: 120_000,
      }).catch(() => undefined);
      await answer?.body.dump();
      const status = answer?.statusCode ?? 0;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }),
  );
  return { statuses, ms: performance.now() - started };
}

/** `200×1024 503×12`. */
export const countedStatuses = (statuses: ReadonlyMap<number, number>): string =>
  [...statuses]
    .sort(([a], [b]) => a - b)
    .map(([status, n]) => `${status}×${n}`)
    .join(" ");

const TYPES = [
  "SOL",
  "ETH",
  "BTC",
  "LTC",
  "DOGE",
  "email",
  "url",
  "discord",
  "github",
  "reddit",
  "twitter",
  "telegram",
  "pic",
  "SHDW",
  "POINT",
  "BSC",
  "INJ",
  "IPFS",
  "ARWV",
  "A",
  "AAAA",
  "CNAME",
  "TXT",
  "background",
  "BASE",
  "backpack",
];
/** Wallets of the demo ledger, with and without primary domains. */
const WALLETS = ["alice", "bob", "carol", "dave", "mallory"].map((name) => identity(name).address);

/**
 * The largest requests of the heavy routes, by route label: `/records-v2` of 100 records of a demo
 * name with every type, `/multiple-primary-domains` of 100 wallets, and `/domains` naming an `rpc`
 * override (`hostileListUrl`: a lying server listing the wallet's names).
 */
export function heavyRoutes(hostileListUrl: string): Record<string, (i: number) => string> {
  const records = Array.from({ length: 100 }, (_, i) => TYPES[i % TYPES.length]).join(",");
  const wallets = Array.from({ length: 100 }, (_, i) => WALLETS[i % WALLETS.length]).join(",");
  return {
    "/records-v2 (100 records)": () => `/records-v2/profile?records=${records}`,
    "/multiple-primary-domains (100 wallets)": () => `/multiple-primary-domains/${wallets}`,
    "/domains (hostile rpc, listed names)": () => `/domains/${WALLETS[0]}?rpc=${encodeURIComponent(hostileListUrl)}`,
  };
}
