import "../testkit/sdk-quiet.js";
import * as untypedSdk from "@bonfida/spl-name-service";
import { Connection, PublicKey, Transaction, type TransactionInstruction } from "@solana/web3.js";
import { pathToFileURL } from "node:url";
import { loadConfig } from "../src/config.js";
import { startGateway } from "../src/platform/node/gateway.js";
import { DEMO_FIXTURE_PATH, identity, loadFixtureFile, startLocalnet } from "../src/localnet/index.js";
import { deriveDomainKey } from "../src/sns/derive.js";
import { settingsFor, ONE_CLIENT_UNLIMITED } from "./settings.js";
import { referenceResolveSrs } from "../testkit/srs-reference.js";

/*
 * The wallet and reverse routes against the SDK functions upstream calls, on
 * the demo ledger, same localnet, same run: a section of `npm run bench`,
 * and on its own `npm run bench -- routes`.
 * Per route: sequential round trips (counted by the localnet), JSON-RPC
 * calls and HTTP requests per request, and req/s
 * at 20 ms latency with 16 concurrent clients (gateway over HTTP; the SDK
 * called in-process with a fresh Connection per request, as upstream does).
 * Resolution rows run with SOL_SRS_RESOLUTION=on: `.sns` against the SDK's
 * `resolve`; SRS `.sol` against the reference resolver of the test tree
 * (testkit/srs-reference.ts: upstream's SRS call sequence, one
 * getAccountInfo per read, since the SDK on npm has no SRS); `/safe-resolve`
 * against both at once, as upstream's safeResolve runs them.
 */

const sdk = untypedSdk as unknown as {
  reverseLookup(c: Connection, key: PublicKey, parent?: PublicKey): Promise<string>;
  NameRegistryState: { retrieve(c: Connection, key: PublicKey): Promise<{ registry: { parentName: PublicKey } }> };
  ROOT_DOMAIN_ACCOUNT: PublicKey;
  getFavoriteDomain(c: Connection, w: PublicKey): Promise<unknown>;
  getMultipleFavoriteDomains(c: Connection, w: PublicKey[]): Promise<unknown>;
  getAllDomains(c: Connection, w: PublicKey): Promise<PublicKey[]>;
  reverseLookupBatch(c: Connection, keys: PublicKey[]): Promise<unknown>;
  getTokenizedDomains(c: Connection, w: PublicKey): Promise<unknown>;
  findSubdomains(c: Connection, parent: PublicKey): Promise<string[]>;
  getDomainKeySync(domain: string): { pubkey: PublicKey };
  getReverseKeySync(domain: string, isSub?: boolean): PublicKey;
  resolve(c: Connection, domain: string): Promise<PublicKey>;
  registerDomainNameV2(
    c: Connection,
    name: string,
    space: number,
    buyer: PublicKey,
    buyerTokenAccount: PublicKey,
    mint?: PublicKey,
  ): Promise<TransactionInstruction[]>;
  createSubdomain(
    c: Connection,
    subdomain: string,
    owner: PublicKey,
    space?: number,
  ): Promise<TransactionInstruction[]>;
};

const NO_PDA = { allowPda: false } as const;
const srsReference = async (c: Connection, name: string) => {
  const outcome = await referenceResolveSrs(c, name, NO_PDA, Math.floor(Date.now() / 1000));
  if (outcome.kind !== "key") throw new Error(`${name}.sol: ${outcome.kind}`);
  return outcome.key;
};
/** upstream's safeResolve: the SRS path and the `.sns` algorithm at once, the keys compared. */
const safeReference = async (c: Connection, name: string) => {
  const [srs, sns] = await Promise.all([srsReference(c, name), sdk.resolve(c, name)]);
  if (srs !== sns.toBase58()) throw new Error(`${name}.sol: SRS ${srs}, SNS ${sns.toBase58()}`);
  return srs;
};

const DURATION_MS = settingsFor("routes").durationS * 1000;
const CONCURRENCY = 16;
const pk = (text: string) => new PublicKey(text);
const wallets = ["alice", "bob", "carol", "dave", "erin", "frank", "mallory"].map((n) => identity(n).address);
const hundred = Array.from({ length: 100 }, (_, i) => wallets[i % wallets.length]!);

interface Case {
  readonly route: string;
  readonly path: string;
  readonly sdk: (c: Connection) => Promise<unknown>;
}

const reverseLookupSdk = async (c: Connection, name: string) => {
  const key = pk(deriveDomainKey(name));
  const { registry } = await sdk.NameRegistryState.retrieve(c, key);
  const sub = !registry.parentName.equals(sdk.ROOT_DOMAIN_ACCOUNT);
  return sdk.reverseLookup(c, key, sub ? registry.parentName : undefined);
};

const domainsSdk = async (c: Connection, wallet: string) => {
  const owner = pk(wallet);
  const [keys, tokenized] = await Promise.all([sdk.getAllDomains(c, owner), sdk.getTokenizedDomains(c, owner)]);
  return [await sdk.reverseLookupBatch(c, keys), tokenized];
};

/** Upstream's answer to `serialize=true`: a fresh blockhash, web3.js's unsigned serialization. */
const serializedSdk = async (c: Connection, payer: PublicKey, instructions: TransactionInstruction[]) => {
  const transaction = new Transaction();
  transaction.feePayer = payer;
  transaction.recentBlockhash = (await c.getLatestBlockhash()).blockhash;
  transaction.add(...instructions);
  return transaction.serialize({ requireAllSignatures: false, verifySignatures: false }).toString("base64");
};

const bob = pk(wallets[1]!);
const USDC = pk("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v");
const bobUsdc = PublicKey.findProgramAddressSync(
  [bob.toBuffer(), pk("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA").toBuffer(), USDC.toBuffer()],
  pk("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL"),
)[0];
const registerSdk = (c: Connection) => sdk.registerDomainNameV2(c, "example", 1000, bob, bobUsdc, USDC);
const createSubdomainSdk = (c: Connection) => sdk.createSubdomain(c, "team.plain", bob, 0);

const CASES: Case[] = [
  { route: "/resolve .sns (registry owner)", path: "/resolve/plain.sns", sdk: (c) => sdk.resolve(c, "plain") },
  { route: "/resolve .sns (tokenized)", path: "/resolve/bonfida.sns", sdk: (c) => sdk.resolve(c, "bonfida") },
  { route: "/resolve SRS .sol (key owner)", path: "/resolve/plain.sol", sdk: (c) => srsReference(c, "plain") },
  { route: "/resolve SRS .sol (tokenized)", path: "/resolve/bonfida.sol", sdk: (c) => srsReference(c, "bonfida") },
  {
    route: "/safe-resolve SRS .sol (key owner)",
    path: "/safe-resolve/plain.sol",
    sdk: (c) => safeReference(c, "plain"),
  },
  {
    route: "/safe-resolve SRS .sol (tokenized)",
    path: "/safe-resolve/bonfida.sol",
    sdk: (c) => safeReference(c, "bonfida"),
  },
  {
    route: "/domain-key (subdomain)",
    path: "/domain-key/dex.bonfida",
    sdk: async () => sdk.getDomainKeySync("dex.bonfida").pubkey,
  },
  {
    route: "/reverse-key (subdomain)",
    path: "/reverse-key/dex.bonfida",
    sdk: async () => sdk.getReverseKeySync("dex.bonfida", true),
  },
  {
    route: "/reverse-lookup",
    path: `/reverse-lookup/${deriveDomainKey("plain")}`,
    sdk: (c) => reverseLookupSdk(c, "plain"),
  },
  {
    route: "/reverse-lookup (subdomain)",
    path: `/reverse-lookup/${deriveDomainKey("dex.bonfida")}`,
    sdk: (c) => reverseLookupSdk(c, "dex.bonfida"),
  },
  {
    route: "/primary-domain (tokenized)",
    path: `/primary-domain/${wallets[2]}`,
    sdk: (c) => sdk.getFavoriteDomain(c, pk(wallets[2]!)),
  },
  {
    route: "/primary-domain (subdomain)",
    path: `/primary-domain/${wallets[4]}`,
    sdk: (c) => sdk.getFavoriteDomain(c, pk(wallets[4]!)),
  },
  {
    route: "/multiple-primary-domains (100)",
    path: `/multiple-primary-domains/${hundred.join(",")}`,
    sdk: (c) => sdk.getMultipleFavoriteDomains(c, hundred.map(pk)),
  },
  { route: "/domains (registry-owned)", path: `/domains/${wallets[0]}`, sdk: (c) => domainsSdk(c, wallets[0]!) },
  { route: "/domains (tokenized)", path: `/domains/${wallets[2]}`, sdk: (c) => domainsSdk(c, wallets[2]!) },
  {
    route: "/subdomains",
    path: "/subdomains/bonfida",
    sdk: (c) => sdk.findSubdomains(c, pk(deriveDomainKey("bonfida"))),
  },
  { route: "/register", path: `/register?buyer=${bob}&domain=example&space=1000`, sdk: registerSdk },
  {
    route: "/register (serialize)",
    path: `/register?buyer=${bob}&domain=example&space=1000&serialize=true`,
    sdk: async (c) => serializedSdk(c, bob, await registerSdk(c)),
  },
  { route: "/create-subdomain", path: `/create-subdomain?owner=${bob}&subdomain=team.plain`, sdk: createSubdomainSdk },
  {
    route: "/create-subdomain (serialize)",
    path: `/create-subdomain?owner=${bob}&subdomain=team.plain&serialize=true`,
    sdk: async (c) => serializedSdk(c, bob, await createSubdomainSdk(c)),
  },
];

/** Requests per second, and how many were made. */
async function throughput(run: () => Promise<unknown>): Promise<{ rps: number; done: number }> {
  const end = performance.now() + DURATION_MS;
  let done = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        await run();
        done++;
      }
    }),
  );
  return { rps: done / (DURATION_MS / 1000), done };
}

export interface RouteRow {
  readonly route: string;
  readonly side: "gateway" | "SDK";
  /** Sequential RPC round trips of one request, as the localnet counts them. */
  readonly roundTrips: number;
  readonly calls: number;
  readonly httpRequests: number;
  /** At 20 ms RPC latency, 16 concurrent clients. */
  readonly rps: number;
  /** JSON-RPC calls per 1,000 requests under that load (concurrent requests share reads). */
  readonly callsPer1k: number;
}

export interface RouteSection {
  readonly rows: RouteRow[];
  /** Gateway req/s ÷ SDK req/s per route. */
  readonly ratios: Record<string, number>;
  readonly table: string;
}

/** Measures every route, gateway then SDK, on one localnet. */
export async function runRouteSection(): Promise<RouteSection> {
  const ledger = await loadFixtureFile(DEMO_FIXTURE_PATH);
  const localnet = await startLocalnet({ ledger });
  const gateway = await startGateway(
    loadConfig({
      ...ONE_CLIENT_UNLIMITED,
      RPC_URL: localnet.url,
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "silent",
      SOL_SRS_RESOLUTION: "on",
    }),
  );
  const get = async (path: string) => {
    const response = await fetch(gateway.url + path);
    if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
    return response.json();
  };
  const rows: RouteRow[] = [];
  const ratios: Record<string, number> = {};
  try {
    for (const c of CASES) {
      await get(c.path); // warm the index and memos
      const measure = async (side: RouteRow["side"], run: () => Promise<unknown>): Promise<RouteRow> => {
        localnet.setLatency(20);
        localnet.resetStats();
        await run();
        // Counted by the localnet (requests sent after an answer was read), not timed: exact on a busy machine.
        const { calls, httpRequests, roundTrips } = localnet.stats;
        localnet.setLatency(20);
        localnet.resetStats();
        const { rps, done } = await throughput(run);
        const callsPer1k = Math.round((localnet.stats.calls / done) * 1000);
        return { route: c.route, side, roundTrips, calls, httpRequests, rps: Math.round(rps), callsPer1k };
      };
      const gw = await measure("gateway", () => get(c.path));
      const base = await measure("SDK", () => c.sdk(new Connection(localnet.url, "processed")));
      rows.push(gw, base);
      ratios[c.route] = Math.round((gw.rps / base.rps) * 100) / 100;
    }
  } finally {
    await gateway.close();
    await localnet.close();
  }
  const cells = [
    ["route", "side", "round trips", "calls/req", "HTTP/req", "req/s @20ms c16", "calls/1k @c16", "ratio"],
  ];
  for (const r of rows) {
    const ratio = r.side === "gateway" ? `×${ratios[r.route]!.toFixed(2)}` : "";
    cells.push([
      r.route,
      r.side,
      `${r.roundTrips}`,
      `${r.calls}`,
      `${r.httpRequests}`,
      `${r.rps}`,
      `${r.callsPer1k}`,
      ratio,
    ]);
  }
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  const table = cells.map((row) => row.map((cell, i) => cell.padEnd(widths[i]!)).join("  ")).join("\n");
  return { rows, ratios, table };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runRouteSection().then(
    (section) => console.log(section.table),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
