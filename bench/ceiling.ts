import { NPM_START, startEnvFor } from "../testkit/npm-start.js";
import { createRng } from "../testkit/rng.js";
import { CEILING_ENVELOPE } from "./ceiling-answer.js";
import { buildChildren, childScript } from "./build.js";
import { Child } from "./child.js";
import { type Expected, fetchAll, runLoad } from "./load.js";
import { gatewayOverrides, settingsFor } from "./settings.js";
import type { WorkingSetEntry } from "./working-set.js";
import { buildWorkload } from "./workload.js";

/**
 * `npm run bench -- ceiling`: the yardstick. Beside the gateway (started with `npm start`'s flags, resolving
 * the resolve section's working set, RPC answering from this machine), a bare `node:http` server and a bare
 * Hono server answer one constant envelope with the same headers. All three get the same load (the same
 * request order, BENCH_CONNECTIONS connections) in alternation, round after round, so that the machine's
 * slow and fast phases fall on every side. For each: answers per second and process CPU (user + system) per
 * answer; then the gateway's share of each bare server: req/s ÷ theirs, and their CPU ÷ the gateway's.
 */

const knobs = settingsFor("ceiling");
const SERVERS = ["gateway", "bare node:http", "bare Hono"] as const;
type Server = (typeof SERVERS)[number];
const SCRIPTS: Record<Server, string> = {
  gateway: "children/gateway",
  "bare node:http": "children/bare-node",
  "bare Hono": "children/bare-hono",
};

buildChildren();
const baseEnv = { PATH: process.env.PATH, NODE_ENV: "production" };
const localnet = await Child.start("localnet", childScript("children/localnet"), {
  env: { ...baseEnv, BENCH_SEED: String(knobs.seed), BENCH_NAMES: String(knobs.names) },
});
const { entries } = localnet.info as { entries: WorkingSetEntry[] };
const workload = buildWorkload(entries, createRng(knobs.seed + 1).next, {
  length: 1 << 18,
  exponent: knobs.zipfExponent,
  solShare: knobs.solShare,
});
await localnet.call("latency", knobs.latencyMs);

async function start(server: Server): Promise<Child> {
  if (server !== "gateway") return Child.start(server, childScript(SCRIPTS[server]), { env: baseEnv });
  return Child.start(server, childScript(SCRIPTS[server]), {
    env: {
      ...baseEnv,
      ...startEnvFor(NPM_START, process.env),
      RPC_URL: localnet.url,
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      ...gatewayOverrides(),
    },
    execArgv: knobs.gatewayNodeFlags ?? NPM_START.nodeFlags,
  });
}

interface Window {
  readonly rps: number;
  readonly usPerAnswer: number;
  readonly p99Ms: number;
  readonly mismatches: number;
}

/** The gateway's answers, read once before any window; the bare servers' are the constant. */
let gatewayAnswers: ReadonlyMap<string, Expected> | undefined;
const constant: Expected = { status: 200, body: CEILING_ENVELOPE };
const everyPath = new Map(workload.paths.map((path) => [path, constant]));

async function measure(server: Server, offset: number): Promise<Window> {
  const child = await start(server);
  try {
    if (server === "gateway") {
      // Every path once in each new gateway process, not only the first: its derivation memos and the
      // JIT are then as warm as in a process that has served these names before (as `ab` does), where
      // rounds after the first otherwise measured a process deriving the working set's keys (2–4× the CPU).
      const answers = await fetchAll(child.url, workload.paths, 16);
      gatewayAnswers ??= new Map(workload.paths.map((path, i) => [path, answers[i]!]));
    }
    const expected = server === "gateway" ? gatewayAnswers! : everyPath;
    const load = {
      url: child.url,
      connections: knobs.connections,
      sequence: workload.sequence,
      expected,
      branchOf: workload.branchOf,
    };
    await runLoad({ ...load, start: offset, durationS: 1.5 });
    const before = await child.usage();
    const result = await runLoad({ ...load, start: offset + 20_000, durationS: knobs.durationS });
    const after = await child.usage();
    return {
      rps: result.rps,
      usPerAnswer: (after.cpuUs - before.cpuUs) / Math.max(1, result.responses),
      p99Ms: result.p99Ms,
      mismatches: result.mismatches,
    };
  } finally {
    await child.stop();
  }
}

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const spread = (values: readonly number[], digits: number): string => {
  const sorted = [...values].sort((a, b) => a - b);
  return `${median(values).toFixed(digits)} (${sorted[0]!.toFixed(digits)}–${sorted.at(-1)!.toFixed(digits)})`;
};

console.log(
  `ceiling: ${workload.paths.length} paths in Zipf order, RPC latency ${knobs.latencyMs} ms, c${knobs.connections}, ` +
    `${knobs.rounds} rounds of ${knobs.durationS} s per server`,
);
const windows = new Map<Server, Window[]>(SERVERS.map((server) => [server, []]));
try {
  for (let round = 1; round <= knobs.rounds; round++) {
    const offset = (round * 40_009) % workload.sequence.length;
    // Each round starts with another server.
    const order = SERVERS.map((_, i) => SERVERS[(i + round - 1) % SERVERS.length]!);
    for (const server of order) {
      const window = await measure(server, offset);
      windows.get(server)!.push(window);
      console.log(
        `round ${round}  ${server.padEnd(15)} ${Math.round(window.rps)} req/s, ${window.usPerAnswer.toFixed(1)} µs CPU ` +
          `per answer, p99 ${window.p99Ms.toFixed(1)} ms, ${window.mismatches} mismatches`,
      );
    }
  }
} finally {
  await localnet.stop();
}

const gateway = windows.get("gateway")!;
console.log("");
for (const server of SERVERS) {
  const own = windows.get(server)!;
  console.log(
    `${server.padEnd(15)} req/s ${spread(
      own.map((w) => w.rps),
      0,
    )}; CPU per answer ${spread(
      own.map((w) => w.usPerAnswer),
      1,
    )} µs; mismatches ${own.reduce((sum, w) => sum + w.mismatches, 0)}`,
  );
}
for (const bare of SERVERS.filter((server) => server !== "gateway")) {
  const theirs = windows.get(bare)!;
  // Per round: both measured in the same phase of the machine.
  const throughput = gateway.map((w, i) => w.rps / theirs[i]!.rps);
  const cpu = gateway.map((w, i) => theirs[i]!.usPerAnswer / w.usPerAnswer);
  console.log(
    `gateway ÷ ${bare}: req/s ${spread(throughput, 2)}, CPU per answer ${spread(
      gateway.map((w, i) => w.usPerAnswer / theirs[i]!.usPerAnswer),
      1,
    )}× theirs (share ${spread(cpu, 2)})`,
  );
}
