import { existsSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Agent, request } from "undici";
import { mapLimit } from "../testkit/differential.js";
import { startChildGateway, type ChildGateway } from "../testkit/child-gateway.js";
import { ONE_CLIENT_UNLIMITED } from "./settings.js";
import { summarizeProfile } from "./profile.js";
import { cpuNsOf } from "./process-cpu.js";
import { buildChildren, childScript } from "./build.js";
import { Child } from "./child.js";
import { plainNames } from "./plain-names.js";

/*
 * The CPU half of `npm run bench -- bulk`: what a `POST /resolve` of 1,000
 * distinct names the gateway has never seen costs per name, against what one
 * `GET /resolve` answer costs in the same process, and what 4 such POSTs back
 * to back do to the p99 of GETs at c64. Names are plain `.sns` names (an
 * on-curve owner, no records, each with its own owner, so no memo of the
 * gateway knows any part of them); RPC latency 0 ms, resolve cache off.
 *
 * CPU is the gateway process's, all threads, from the kernel's per-thread
 * run time (/proc/<pid>/task/<tid>/schedstat, nanoseconds): a body costs tens
 * of milliseconds, below what the 10 ms ticks of /proc/<pid>/stat resolve.
 * Each body is followed by one pass of 1,000 GETs at c64 over one fixed set of
 * names (derivations memoized after the warm-up, every GET reading the chain),
 * and the ratio is taken per pair, so a busy machine moves both sides.
 */

export interface BulkCpuOptions {
  readonly seed: number;
  readonly bodies: number;
  readonly contentionRounds: number;
  readonly connections: number;
  /** Write a CPU profile of the gateway (POST bodies only) into this directory. */
  readonly profileDir?: string;
}

export interface BulkCpuReport {
  readonly postCpuUsPerName: Spread;
  readonly getCpuUsPerAnswer: Spread;
  /** POST per name / GET per answer, per pair. */
  readonly ratio: Spread;
  readonly postWallMs: Spread;
  /** GET latency at c64, p99 over the rounds, alone and while 4 POSTs run back to back. */
  readonly getP99MsAlone: number;
  readonly getP99MsWithPosts: number;
  readonly getsAlone: number;
  readonly getsWithPosts: number;
  readonly profile?: string;
}

export interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
}

const NAMES_PER_BODY = 1000;
const WARM_BODIES = 2;
const POSTS_PER_CONTENTION = 4;

const spread = (values: readonly number[]): Spread => {
  const sorted = [...values].sort((a, b) => a - b);
  const round = (x: number) => Math.round(x * 10) / 10;
  return {
    median: round(sorted[Math.floor(sorted.length / 2)]!),
    min: round(sorted[0]!),
    max: round(sorted[sorted.length - 1]!),
  };
};
const p99 = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.99))]!;

export async function measureBulkCpu(options: BulkCpuOptions): Promise<BulkCpuReport> {
  const profiling = options.profileDir !== undefined;
  const bodyCount = WARM_BODIES + options.bodies + (profiling ? 0 : POSTS_PER_CONTENTION * options.contentionRounds);
  const total = NAMES_PER_BODY * (bodyCount + 1);
  const names = plainNames(options.seed, total);
  const getNames = names.slice(0, NAMES_PER_BODY);
  const bodies = Array.from({ length: bodyCount }, (_, i) =>
    JSON.stringify({ domains: names.slice(NAMES_PER_BODY * (i + 1), NAMES_PER_BODY * (i + 2)) }),
  );
  // The localnet in a process of its own: replies of 1,000 accounts built in this one would stall the clients
  // whose latencies are measured here.
  buildChildren();
  const localnet = await Child.start("localnet", childScript("children/plain-localnet"), {
    env: { ...process.env, BENCH_SEED: String(options.seed), BENCH_NAMES: String(total) },
  });
  let gateway: ChildGateway | undefined;
  const agent = new Agent({ connections: options.connections, keepAliveTimeout: 30_000 });
  try {
    if (profiling) mkdirSync(options.profileDir, { recursive: true });
    gateway = await startChildGateway({
      ...ONE_CLIENT_UNLIMITED,
      RPC_URL: localnet.url,
      ...(profiling && {
        NODE_OPTIONS: `--import ${fileURLToPath(new URL("../scripts/cpu-profile-on-signal.mjs", import.meta.url))}`,
        BENCH_CPU_PROFILE_FILE: `${options.profileDir}/gateway-bulk-posts.cpuprofile`,
      }),
    });
    const url = gateway.url;
    const pid = gateway.process.pid!;
    let nextBody = 0;
    const post = async (): Promise<number> => {
      const started = performance.now();
      const response = await request(`${url}/resolve`, {
        method: "POST",
        dispatcher: agent,
        body: bodies[nextBody++]!,
      });
      const items = ((await response.body.json()) as { result: { status: number }[] }).result;
      if (response.statusCode !== 200 || items.length !== NAMES_PER_BODY || items.some((item) => item.status !== 200))
        throw new Error(`POST /resolve: ${response.statusCode}, items not all 200`);
      return performance.now() - started;
    };
    const get = async (name: string): Promise<number> => {
      const started = performance.now();
      const response = await request(`${url}/resolve/${name}`, { dispatcher: agent });
      await response.body.dump();
      if (response.statusCode !== 200) throw new Error(`GET /resolve/${name}: ${response.statusCode}`);
      return performance.now() - started;
    };
    const getPass = () =>
      mapLimit(getNames, options.connections, async (name) => {
        await get(name);
      });

    for (let i = 0; i < WARM_BODIES; i++) {
      await getPass();
      await post();
    }
    const postCpu: number[] = [];
    const getCpu: number[] = [];
    const postWall: number[] = [];
    if (profiling) gateway.process.kill("SIGUSR2");
    for (let i = 0; i < options.bodies; i++) {
      let before = cpuNsOf(pid);
      postWall.push(await post());
      postCpu.push((cpuNsOf(pid) - before) / 1000 / NAMES_PER_BODY);
      if (profiling) continue;
      before = cpuNsOf(pid);
      await getPass();
      getCpu.push((cpuNsOf(pid) - before) / 1000 / NAMES_PER_BODY);
    }

    // GETs at c64 for as long as 4 POSTs take back to back, then as many GETs without them.
    const alone: number[] = [];
    const withPosts: number[] = [];
    for (let round = 0; round < (profiling ? 0 : options.contentionRounds); round++) {
      let posting = true;
      const load = (async () => {
        let at = 0;
        await Promise.all(
          Array.from({ length: options.connections }, async () => {
            while (posting) withPosts.push(await get(getNames[at++ % getNames.length]!));
          }),
        );
      })();
      for (let i = 0; i < POSTS_PER_CONTENTION; i++) await post();
      posting = false;
      await load;
      const count = withPosts.length - alone.length;
      let at = 0;
      await Promise.all(
        Array.from({ length: options.connections }, async () => {
          while (at < count) alone.push(await get(getNames[at++ % getNames.length]!));
        }),
      );
    }

    let profile: string | undefined;
    if (profiling) {
      profile = `${options.profileDir}/gateway-bulk-posts.cpuprofile`;
      gateway.process.kill("SIGUSR2");
      while (!existsSync(profile)) await new Promise((resume) => setTimeout(resume, 100));
      await new Promise((resume) => setTimeout(resume, 500));
      console.log(`${profile}\n${summarizeProfile(profile, 30)}\n`);
    }
    return {
      postCpuUsPerName: spread(postCpu),
      getCpuUsPerAnswer: spread(getCpu.length ? getCpu : [NaN]),
      ratio: spread(getCpu.length ? postCpu.map((cpu, i) => cpu / getCpu[i]!) : [NaN]),
      postWallMs: spread(postWall),
      getP99MsAlone: Math.round(p99(alone.length ? alone : [NaN]) * 10) / 10,
      getP99MsWithPosts: Math.round(p99(withPosts.length ? withPosts : [NaN]) * 10) / 10,
      getsAlone: alone.length,
      getsWithPosts: withPosts.length,
      ...(profile !== undefined && { profile }),
    };
  } finally {
    await agent.close();
    await gateway?.stop();
    await localnet.stop();
  }
}
