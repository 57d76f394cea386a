import * as untypedSdk from "@bonfida/spl-name-service";
import { Connection, type PublicKey } from "@solana/web3.js";
import { writeFileSync } from "node:fs";
import { Agent, request } from "undici";
import { type Localnet, startLocalnet } from "../src/localnet/server.js";
import { mapLimit } from "../testkit/differential.js";
import { startChildGateway } from "../testkit/child-gateway.js";
import { settingsFor, ONE_CLIENT_UNLIMITED } from "./settings.js";
import { generateWorkingSetParts } from "./working-set.js";
import { buildLedger } from "../testkit/chain-gen.js";
import { type BulkCpuReport, measureBulkCpu } from "./bulk-cpu.js";

/*
 * `npm run bench -- bulk`: N names (the resolve section's traffic-like mix of
 * branches, every name with a chain state) resolved three ways against one
 * localnet, per RPC latency: one `POST /resolve`, N `GET /resolve/<name>` at
 * c64, and the official SDK's `resolve` at c64 in this process (a new
 * Connection per name, as upstream). The gateway is a child process started
 * as `npm start` starts it, resolve cache off. Each variant runs once to warm
 * the derivation memos and connections, then `rounds` times alternating;
 * reported: median wall time, RPC HTTP requests and JSON-RPC calls per run,
 * and the p99 of a name's latency (the POST's is its wall time).
 * Then the CPU part (bench/bulk-cpu.ts): CPU per name of POSTs of 1,000 new
 * names against CPU per GET answer, and GET p99 at c64 beside 4 such POSTs.
 */

const { resolve: sdkResolve } = untypedSdk as unknown as { resolve(c: Connection, domain: string): Promise<PublicKey> };

const settings = settingsFor("bulk");

type Variant = "POST ×1" | "GET c64" | "SDK c64";
interface Run {
  readonly wallMs: number;
  readonly httpRequests: number;
  readonly calls: number;
  readonly latenciesMs: readonly number[];
  /** What each name answered (status and result), to check the variants agree. */
  readonly answers: readonly string[];
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const p99 = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.99))]!;

async function measure(
  localnet: Localnet,
  run: () => Promise<{ latenciesMs: number[]; answers: string[] }>,
): Promise<Run> {
  localnet.resetStats();
  const started = performance.now();
  const { latenciesMs, answers } = await run();
  const wallMs = performance.now() - started;
  const { httpRequests, calls } = localnet.stats;
  return { wallMs, httpRequests, calls, latenciesMs, answers };
}

async function main(): Promise<void> {
  const compared = settings.part === "cpu" ? undefined : await compare();
  let cpu: BulkCpuReport | undefined;
  if (settings.part !== "compare") {
    cpu = await measureBulkCpu({
      seed: settings.seed,
      bodies: settings.bodies,
      contentionRounds: settings.rounds,
      connections: settings.connections,
      ...(settings.profile === "1" && {
        profileDir: `bench/results/profiles/bulk-${new Date().toISOString().replace(/[:.]/g, "-")}`,
      }),
    });
    const range = (s: { median: number; min: number; max: number }) => `${s.median} (${s.min}–${s.max})`;
    console.log(
      `bulk cpu: ${settings.bodies} POSTs of 1,000 new plain .sns names at 0 ms, each followed by 1,000 GETs at c64 (medians, min–max)`,
    );
    console.log(
      `| POST µs CPU/name | GET µs CPU/answer | POST/GET | POST wall ms | GET p99 ms alone | GET p99 ms beside 4 POSTs |`,
    );
    console.log(`| --- | --- | --- | --- | --- | --- |`);
    console.log(
      `| ${range(cpu.postCpuUsPerName)} | ${range(cpu.getCpuUsPerAnswer)} | ${range(cpu.ratio)} | ${range(cpu.postWallMs)} | ` +
        `${cpu.getP99MsAlone} (${cpu.getsAlone} GETs) | ${cpu.getP99MsWithPosts} (${cpu.getsWithPosts} GETs) |`,
    );
  }
  writeFileSync(
    settings.out ?? "bench/results/bulk.json",
    `${JSON.stringify({ seed: settings.seed, ...compared, cpu }, null, 2)}\n`,
  );
}

async function compare(): Promise<{ names: number; report: Record<string, unknown> }> {
  const parts = generateWorkingSetParts(settings.seed, Math.ceil(settings.names * 1.05));
  const names = parts.entries
    .filter((entry) => entry.sdk !== undefined)
    .slice(0, settings.names)
    .map((entry) => entry.name);
  const localnet = await startLocalnet({ ledger: buildLedger(parts.states) });
  const gateway = await startChildGateway({ ...ONE_CLIENT_UNLIMITED, RPC_URL: localnet.url });
  const agent = new Agent({ connections: settings.connections, keepAliveTimeout: 30_000 });
  const http = async (method: "GET" | "POST", path: string, body?: string) => {
    const response = await request(gateway.url + path, {
      method,
      dispatcher: agent,
      ...(body !== undefined && { body }),
    });
    return { status: response.statusCode, body: (await response.body.json()) as { s: string; result: unknown } };
  };

  const variants: Record<Variant, () => Promise<{ latenciesMs: number[]; answers: string[] }>> = {
    "POST ×1": async () => {
      const started = performance.now();
      const { status, body } = await http(
        "POST",
        "/resolve",
        JSON.stringify({ domains: names.map((name) => `${name}.sns`) }),
      );
      if (status !== 200) throw new Error(`POST /resolve: ${status}`);
      const items = body.result as { status: number; result: string }[];
      return {
        latenciesMs: [performance.now() - started],
        answers: items.map((item) => `${item.status} ${item.result}`),
      };
    },
    "GET c64": async () => {
      const latenciesMs: number[] = [];
      const answers: string[] = new Array(names.length);
      await mapLimit([...names.keys()], settings.connections, async (i) => {
        const started = performance.now();
        const { status, body } = await http("GET", `/resolve/${encodeURIComponent(names[i]!)}.sns`);
        latenciesMs.push(performance.now() - started);
        answers[i] = `${status} ${String(body.result)}`;
      });
      return { latenciesMs, answers };
    },
    "SDK c64": async () => {
      const latenciesMs: number[] = [];
      const answers: string[] = new Array(names.length);
      await mapLimit([...names.keys()], settings.connections, async (i) => {
        const started = performance.now();
        try {
          answers[i] = (await sdkResolve(new Connection(localnet.url, "processed"), `${names[i]!}.sol`)).toBase58();
        } catch (error) {
          answers[i] = error instanceof Error ? error.name : "error";
        }
        latenciesMs.push(performance.now() - started);
      });
      return { latenciesMs, answers };
    },
  };

  const report: Record<
    string,
    Record<Variant, { wallMs: number; httpRequests: number; calls: number; p99Ms: number }>
  > = {};
  try {
    for (const latency of settings.latenciesMs) {
      localnet.setLatency(latency);
      const runs = new Map<Variant, Run[]>();
      for (const [variant, run] of Object.entries(variants) as [
        Variant,
        () => Promise<{ latenciesMs: number[]; answers: string[] }>,
      ][]) {
        await run(); // warm-up
        runs.set(variant, []);
      }
      for (let round = 0; round < settings.rounds; round++) {
        for (const [variant, run] of Object.entries(variants) as [
          Variant,
          () => Promise<{ latenciesMs: number[]; answers: string[] }>,
        ][]) {
          runs.get(variant)!.push(await measure(localnet, run));
        }
      }
      const post = runs.get("POST ×1")![0]!.answers;
      const get = runs.get("GET c64")![0]!.answers;
      const differing = post.filter((answer, i) => answer !== get[i]).length;
      if (differing > 0) throw new Error(`${differing} POST items differ from their GET answers`);
      report[`${latency}ms`] = Object.fromEntries(
        [...runs].map(([variant, list]) => [
          variant,
          {
            wallMs: Math.round(median(list.map((r) => r.wallMs))),
            httpRequests: median(list.map((r) => r.httpRequests)),
            calls: median(list.map((r) => r.calls)),
            p99Ms: Math.round(p99(list.flatMap((r) => r.latenciesMs)) * 10) / 10,
          },
        ]),
      ) as Record<Variant, { wallMs: number; httpRequests: number; calls: number; p99Ms: number }>;
    }
  } finally {
    await agent.close();
    await gateway.stop();
    await localnet.close();
  }

  const rows = [
    ["RPC latency", "variant", "wall ms", "×SDK (wall)", "RPC HTTP requests", "JSON-RPC calls", "p99 ms (per name)"],
  ];
  for (const [latency, cells] of Object.entries(report)) {
    const sdkWall = cells["SDK c64"].wallMs;
    for (const [variant, cell] of Object.entries(cells)) {
      rows.push([
        latency,
        variant,
        `${cell.wallMs}`,
        `×${(sdkWall / cell.wallMs).toFixed(1)}`,
        `${cell.httpRequests}`,
        `${cell.calls}`,
        `${cell.p99Ms}`,
      ]);
    }
  }
  console.log(`bulk: ${names.length} names, seed ${settings.seed}, ${settings.rounds} rounds (medians)`);
  console.log(rows.map((row) => `| ${row.join(" | ")} |`).join("\n"));
  return { names: names.length, report };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
