import { NPM_START, startEnvFor } from "../testkit/npm-start.js";
import { createRng } from "../testkit/rng.js";
import { buildChildren, childScript } from "./build.js";
import { Child } from "./child.js";
import { LoadConnection } from "./http-client.js";
import { fetchAll, runLoad } from "./load.js";
import type { WorkingSetEntry } from "./working-set.js";
import { buildWorkload } from "./workload.js";
import { gatewayOverrides, settingsFor } from "./settings.js";

// `npm run bench -- wave`: where the time of a request goes at one RPC latency and concurrency
// (BENCH_LATENCY_MS 20, BENCH_CONNECTIONS 64, the bench's workload and pre-pass). The gateway child
// (children/gateway-trace.ts) records when it parsed each request, finished each answer, and sent and
// got back each RPC exchange; this process records when it wrote each request and read its answer.
// Printed per round: the client's latency split into inbound (write → parsed), in-app (parsed → answer
// finished) and outbound (finished → read by the client), RPC exchanges, and how requests and answers
// bunch into event-loop turns (BENCH_TIMELINE=1: 80 ms of them, turn by turn). BENCH_VARIANTS runs
// several gateways that differ in environment variables, in alternation, and ends with each one's
// median and spread of RTT / mean latency (the bench's c/RTT fraction), RPC requests per 1,000
// answers and CPU per answer. Tracing costs the gateway a few µs per answer.

const knobs = settingsFor("wave");
const { latencyMs, connections, durationS, rounds } = knobs;

const REQUEST = 1;
const FINISH = 2;
const RPC_SENT = 3;
const RPC_DONE = 5;

interface Trace {
  kinds: number[];
  times: number[];
  ports: number[];
  turns: number[];
  loopUtilization: number;
}

const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
const pct = (values: readonly number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
};
const f = (value: number) => value.toFixed(2);
const describe = (values: readonly number[]) =>
  `mean ${f(mean(values))}  p10 ${f(pct(values, 10))}  p50 ${f(pct(values, 50))}  p90 ${f(pct(values, 90))}  p99 ${f(pct(values, 99))}  (n ${values.length})`;

interface ClientEvent {
  sent: number;
  received: number;
  port: number;
}

async function tracedLoad(url: string, sequence: readonly string[], start: number): Promise<ClientEvent[]> {
  const events: ClientEvent[] = [];
  const target = new URL(url);
  let cursor = start;
  let stopped = false;
  const origin = performance.timeOrigin;
  const all: LoadConnection[] = [];
  for (let i = 0; i < connections; i++) {
    const connection: LoadConnection = new LoadConnection(target.hostname, Number(target.port), {
      next: () => (stopped ? undefined : sequence[cursor++ % sequence.length]!),
      onAnswer: (_path, _answer, elapsed, first) => {
        if (stopped || first) return;
        const now = origin + performance.now();
        const port = (connection as unknown as { socket: { localPort: number } }).socket.localPort;
        events.push({ sent: now - elapsed, received: now, port });
      },
      onError: () => undefined,
    });
    all.push(connection);
  }
  for (const connection of all) connection.start();
  await new Promise((resolve) => setTimeout(resolve, durationS * 1000));
  stopped = true;
  for (const connection of all) connection.close();
  return events;
}

function analyze(
  trace: Trace,
  client: ClientEvent[],
  rttMs: number,
): { fraction: number; meanMs: number; rpcPer1k: number } {
  const { kinds, times, ports, turns } = trace;
  const byPort = new Map<number, { request: number[]; finish: number[] }>();
  for (let i = 0; i < kinds.length; i++) {
    if (kinds[i] !== REQUEST && kinds[i] !== FINISH) continue;
    let entry = byPort.get(ports[i]!);
    if (!entry) byPort.set(ports[i]!, (entry = { request: [], finish: [] }));
    (kinds[i] === REQUEST ? entry.request : entry.finish).push(times[i]!);
  }
  const total: number[] = [];
  const inbound: number[] = [];
  const inApp: number[] = [];
  const outbound: number[] = [];
  for (const event of client) {
    const entry = byPort.get(event.port);
    if (!entry) continue;
    const i = entry.request.findIndex((t) => t >= event.sent - 0.3);
    if (i < 0) continue;
    const requestAt = entry.request[i]!;
    const finishAt = entry.finish.find((t) => t >= requestAt);
    if (finishAt === undefined || finishAt > event.received + 0.3) continue;
    total.push(event.received - event.sent);
    inbound.push(requestAt - event.sent);
    inApp.push(finishAt - requestAt);
    outbound.push(event.received - finishAt);
  }
  const allClient = client.map((e) => e.received - e.sent);
  console.log(`client latency (all ${client.length})   ${describe(allClient)}`);
  console.log(
    `  RTT / mean: ${f(rttMs / mean(allClient))} (RTT ${f(rttMs)} ms, c / mean ${f((connections / mean(allClient)) * 1000)} req/s)`,
  );
  console.log(`matched                         ${describe(total)}`);
  console.log(`  inbound (write → parsed)      ${describe(inbound)}`);
  console.log(`  in-app (parsed → finish)      ${describe(inApp)}`);
  console.log(`  outbound (finish → read)      ${describe(outbound)}`);

  // RPC exchanges, paired in order (the localnet answers after a fixed delay).
  const sent: number[] = [];
  const done: number[] = [];
  for (let i = 0; i < kinds.length; i++) {
    if (kinds[i] === RPC_SENT) sent.push(times[i]!);
    if (kinds[i] === RPC_DONE) done.push(times[i]!);
  }
  const exchange = done.slice(0, sent.length).map((t, i) => t - sent[i]!);
  console.log(
    `RPC exchanges ${sent.length} (${f((sent.length * 1000) / Math.max(1, client.length))} per 1k answers), sent → done ${describe(exchange)}`,
  );

  // Requests parsed per turn, and how long after the turn's last parse the next RPC left.
  const turnsOf = (kind: number) => {
    const groups = new Map<number, number[]>();
    for (let i = 0; i < kinds.length; i++) {
      if (kinds[i] !== kind) continue;
      let list = groups.get(turns[i]!);
      if (!list) groups.set(turns[i]!, (list = []));
      list.push(times[i]!);
    }
    return groups;
  };
  const requestTurns = turnsOf(REQUEST);
  const finishTurns = turnsOf(FINISH);
  const sizes = (groups: Map<number, number[]>) => [...groups.values()].map((g) => g.length);
  const spans = (groups: Map<number, number[]>) => [...groups.values()].map((g) => g[g.length - 1]! - g[0]!);
  console.log(`requests per turn ${describe(sizes(requestTurns))}`);
  console.log(`  span of a turn's parses ms    ${describe(spans(requestTurns))}`);
  console.log(`answers per turn  ${describe(sizes(finishTurns))}`);
  console.log(`  span of a turn's answers ms   ${describe(spans(finishTurns))}`);
  const doneTurn = new Map<number, number>();
  for (let i = 0; i < kinds.length; i++) if (kinds[i] === RPC_DONE) doneTurn.set(turns[i]!, times[i]!);
  const fromDone: number[] = [];
  for (const [turn, list] of finishTurns) {
    const at = doneTurn.get(turn);
    if (at !== undefined) fromDone.push(list[list.length - 1]! - at);
  }
  console.log(`  RPC done → turn's last answer ${describe(fromDone)}`);
  // Parse → the RPC that carried it: the first RPC_SENT after the request.
  const toFlush: number[] = [];
  let s = 0;
  const requestTimes = times.filter((_, i) => kinds[i] === REQUEST);
  for (const t of requestTimes) {
    while (s < sent.length && sent[s]! < t) s++;
    if (s < sent.length) toFlush.push(sent[s]! - t);
  }
  console.log(`parse → next RPC sent ms        ${describe(toFlush.filter((v) => v < 5))}`);
  if (knobs.timeline) {
    // 80 ms from the middle of the window, turn by turn: R parsed, F finished (runs counted), S RPC sent, D RPC done.
    const from = times[Math.floor(times.length / 2)]!;
    let current = -1;
    let tokens: string[] = [];
    let head = "";
    const flushLine = () => {
      if (!head) return;
      const out: string[] = [];
      for (const token of tokens) {
        const last = out[out.length - 1];
        const match = last?.match(/^(\d+)([RF])$/);
        if ((token === "R" || token === "F") && match && match[2] === token)
          out[out.length - 1] = `${Number(match[1]) + 1}${token}`;
        else out.push(token === "R" || token === "F" ? `1${token}` : token);
      }
      console.log(`${head} ${out.join(" ")}`);
    };
    for (let i = 0; i < kinds.length; i++) {
      const t = times[i]! - from;
      if (t < 0 || t > 80) continue;
      if (turns[i] !== current) {
        flushLine();
        current = turns[i]!;
        head = `turn ${current} @${f(t)}:`;
        tokens = [];
      }
      const tag = ["", "R", "F", "S", "H", "D"][kinds[i]!]!;
      tokens.push(tag === "R" || tag === "F" ? tag : `${tag}@${f(t)}`);
    }
    flushLine();
  }
  return {
    fraction: rttMs / mean(allClient),
    meanMs: mean(allClient),
    rpcPer1k: (sent.length * 1000) / Math.max(1, client.length),
  };
}

/** `BENCH_VARIANTS="RPC_SETTLE_SLICE=0;RPC_SETTLE_SLICE=32"`: gateways differing in these variables, measured in alternation. */
function variantsFrom(value: string | undefined): { label: string; env: Record<string, string> }[] {
  const specs = (value ?? "").split(";").map((spec) => spec.trim());
  return specs.map((spec) => ({
    label: spec || "defaults",
    env: Object.fromEntries(
      spec
        .split(/\s+/)
        .filter(Boolean)
        .map((pair) => pair.split("=", 2) as [string, string]),
    ),
  }));
}

async function main(): Promise<void> {
  const build = buildChildren();
  if (build.diagnostics) console.log(build.diagnostics.split("\n").slice(0, 10).join("\n"));
  const baseEnv = { PATH: process.env.PATH, NODE_ENV: "production" };
  const localnet = await Child.start("localnet", childScript("children/localnet"), {
    env: { ...baseEnv, BENCH_SEED: "1", BENCH_NAMES: "1000" },
  });
  const children = [localnet];
  try {
    const { entries } = localnet.info as { entries: WorkingSetEntry[] };
    const workload = buildWorkload(entries, createRng(2).next, { length: 1 << 18, exponent: 1, solShare: 0.35 });
    const env: Record<string, string | undefined> = {
      ...baseEnv,
      ...startEnvFor(NPM_START, process.env),
      RPC_URL: localnet.url,
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      RESOLVE_CACHE_TTL_MS: "0",
      SHUTDOWN_GRACE_MS: "1000",
      ...gatewayOverrides(),
    };
    const flags = knobs.gatewayNodeFlags ?? NPM_START.nodeFlags;
    const variants = variantsFrom(knobs.variants);
    const gateways: Child[] = [];
    await localnet.call("latency", 0);
    for (const variant of variants) {
      const gateway = await Child.start("gateway", childScript("children/gateway-trace"), {
        env: { ...env, ...variant.env },
        execArgv: flags,
      });
      children.push(gateway);
      gateways.push(gateway);
      // Every distinct path once, as the bench's pre-pass does: memos and holder hints as warm as there.
      await fetchAll(gateway.url, workload.paths, 16);
    }
    await localnet.call("latency", latencyMs);
    const rtt: number[] = [];
    for (let i = 0; i < 15; i++) {
      const t = performance.now();
      const body = '{"jsonrpc":"2.0","id":1,"method":"getSlot"}';
      await (
        await fetch(localnet.url, { method: "POST", headers: { "content-type": "application/json" }, body })
      ).text();
      rtt.push(performance.now() - t);
    }
    const rttMs = pct(rtt, 50);
    const rows = new Map<string, { fraction: number; rpcPer1k: number; cpu: number; loop: number }[]>();
    for (let r = 0; r < rounds; r++) {
      for (const [v, variant] of variants.entries()) {
        const gateway = gateways[v]!;
        const common = {
          url: gateway.url,
          connections,
          sequence: workload.sequence,
          expected: new Map(),
          branchOf: new Map(),
        };
        await runLoad({ ...common, durationS: 1, start: r * 40_009 });
        await new Promise((resolve) => setTimeout(resolve, 300));
        const u0 = await gateway.usage();
        const profile = knobs.profileDir;
        if (profile) await gateway.call("profileStart");
        await gateway.call("traceStart");
        const client = await tracedLoad(gateway.url, workload.sequence, r * 40_009 + 20_000);
        const trace = await gateway.call<Trace>("traceStop");
        if (profile)
          await gateway.call(
            "profileStop",
            `${profile}/${variant.label.replace(/[^\w=-]+/g, "_")}-${r + 1}.cpuprofile`,
          );
        const u1 = await gateway.usage();
        const cpu = (u1.cpuUs - u0.cpuUs) / Math.max(1, client.length);
        console.log(
          `--- round ${r + 1}, ${variant.label}: ${latencyMs} ms, c${connections}, ${durationS} s; gateway CPU ${f(cpu)} µs/answer, event loop ${(trace.loopUtilization * 100).toFixed(0)}% busy`,
        );
        const brief = analyze(trace, client, rttMs);
        const list = rows.get(variant.label) ?? [];
        rows.set(variant.label, list);
        list.push({ fraction: brief.fraction, rpcPer1k: brief.rpcPer1k, cpu, loop: trace.loopUtilization });
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
    }
    console.log(`\nsummary (RTT ${f(rttMs)} ms): median (min–max) over ${rounds} rounds`);
    const spread = (values: number[], digits: number) =>
      `${pct(values, 50).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;
    for (const [label, list] of rows) {
      console.log(
        `${label.padEnd(30)} RTT/mean ${spread(
          list.map((x) => x.fraction),
          2,
        )}  RPC/1k ${spread(
          list.map((x) => x.rpcPer1k),
          1,
        )}  ` +
          `CPU µs/answer ${spread(
            list.map((x) => x.cpu),
            0,
          )}  loop busy ${spread(
            list.map((x) => x.loop * 100),
            0,
          )}%  [${list.map((x) => x.fraction.toFixed(2)).join(" ")}]`,
      );
    }
  } finally {
    await Promise.all(children.map((child) => child.stop()));
  }
}

await main();
