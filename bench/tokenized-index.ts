import { sha256 } from "@noble/hashes/sha2.js";
import { loadConfig } from "../src/config.js";
import { startGateway } from "../src/platform/node/gateway.js";
import {
  Ledger,
  buildDomainAccounts,
  encodeNftRecord,
  identity,
  startLocalnet,
  tokenizeDomain,
} from "../src/localnet/index.js";
import { bytesToAddress, utf8 } from "../src/sns/bytes.js";
import { NAME_TOKENIZER_ID } from "../src/sns/constants.js";
import { deriveDomainKey } from "../src/sns/derive.js";
import { settingsFor, ONE_CLIENT_UNLIMITED } from "./settings.js";

/*
 * `npm run bench -- index`: bootstrap time and memory of the tokenized-domain
 * index over BENCH_RECORDS (default 100,000) synthetic active NFT records,
 * then the cost of a `/domains` request once it is built.
 */

const RECORDS = settingsFor("index").records;
const key = (label: string, i: number) => bytesToAddress(sha256(utf8.encode(`${label}:${i}`)));
const gc = (globalThis as { gc?: () => void }).gc;
const memoryMB = () => {
  gc?.();
  const { heapUsed, rss, arrayBuffers } = process.memoryUsage();
  return { heap: heapUsed / 2 ** 20, rss: rss / 2 ** 20, buffers: arrayBuffers / 2 ** 20 };
};
const round1 = (mb: number) => Math.round(mb * 10) / 10;

async function main(): Promise<void> {
  const ledger = new Ledger();
  for (let i = 0; i < RECORDS; i++) {
    const nameAccount = key("name", i);
    const nftMint = key("mint", i);
    ledger.setAccount(key("record", i), {
      owner: NAME_TOKENIZER_ID,
      data: encodeNftRecord({ tag: 2, nonce: 255, nameAccount, owner: nameAccount, nftMint }),
    });
  }
  const holder = identity("collector").address;
  for (const { address, account } of buildDomainAccounts({ name: "gallery", owner: holder }))
    ledger.setAccount(address, account);
  tokenizeDomain(ledger, { domainKey: deriveDomainKey("gallery"), holder });

  const localnet = await startLocalnet({ ledger });
  const gateway = await startGateway(
    loadConfig({ ...ONE_CLIENT_UNLIMITED, RPC_URL: localnet.url, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "silent" }),
  );
  const before = memoryMB();
  const started = performance.now();
  const first = await (await fetch(`${gateway.url}/domains/${holder}`)).json();
  const firstAnswerMs = performance.now() - started;
  // The first request scans if the build takes longer than it may wait; the build goes on behind it.
  const ready = 'sns_gateway_tokenized_index_state{state="ready"} 1';
  while (!(await (await fetch(`${gateway.url}/metrics`)).text()).includes(ready))
    await new Promise((r) => setTimeout(r, 20));
  const bootstrapMs = performance.now() - started;
  const stats = localnet.stats;
  const after = memoryMB();

  localnet.resetStats();
  const n = 500;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await (await fetch(`${gateway.url}/domains/${holder}`)).json();
  const perRequestMs = (performance.now() - t0) / n;
  const steady = localnet.stats;

  console.log(
    JSON.stringify(
      {
        records: RECORDS,
        firstAnswer: first,
        firstAnswerMs: Math.round(firstAnswerMs),
        bootstrapMs: Math.round(bootstrapMs),
        bootstrapRpc: { httpRequests: stats.httpRequests, methods: stats.methods },
        heapGrowthMB: gc ? round1(after.heap - before.heap) : "run with --expose-gc",
        // The index's rows are typed arrays: outside the V8 heap.
        arrayBufferGrowthMB: round1(after.buffers - before.buffers),
        // Localnet and gateway share this process: RSS also holds the localnet's answer buffers.
        rssGrowthMB: round1(after.rss - before.rss),
        perRequestMs: Math.round(perRequestMs * 100) / 100,
        perRequestRpc: { httpRequests: steady.httpRequests / n, calls: steady.calls / n, methods: steady.methods },
      },
      null,
      2,
    ),
  );
  await gateway.close();
  await localnet.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
