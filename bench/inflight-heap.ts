import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NPM_START, startEnvFor } from "../testkit/npm-start.js";
import { createRng } from "../testkit/rng.js";
import { buildChildren, childScript } from "./build.js";
import { Child } from "./child.js";
import { fetchAll } from "./load.js";
import type { WorkingSetEntry } from "./working-set.js";
import { buildWorkload } from "./workload.js";
import { settingsFor } from "./settings.js";

// `npm run bench -- inflight`: what one request in flight holds in the gateway's V8 heap.
// The gateway (compiled, `npm start`'s flags) is warmed, BENCH_CONNECTIONS (default 1,024) keep-alive
// connections are opened and a heap snapshot taken; then the localnet's latency is raised so far that no
// answer comes back, each connection sends one request, and a second snapshot is taken once they all wait
// on the RPC. The difference, divided by the number of requests, is grouped by object kind: what the
// requests in flight at c1024 add to the old generation (at that latency everything they hold is promoted).

const knobs = settingsFor("inflight");
const requests = knobs.requests;
const nodeFlags = knobs.gatewayNodeFlags ?? NPM_START.nodeFlags;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Self bytes and object count per kind ("closure name", "object Constructor", "array", ...). */
function kinds(file: string): Map<string, { count: number; bytes: number }> {
  const snapshot = JSON.parse(readFileSync(file, "utf8")) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
    nodes: number[];
    strings: string[];
  };
  const {
    node_fields: fields,
    node_types: [types],
  } = snapshot.snapshot.meta;
  const [type, name, size] = ["type", "name", "self_size"].map((field) => fields.indexOf(field)) as [
    number,
    number,
    number,
  ];
  const result = new Map<string, { count: number; bytes: number }>();
  for (let i = 0; i < snapshot.nodes.length; i += fields.length) {
    const kind = types[snapshot.nodes[i + type]!]!;
    // String contents and array names say nothing about where they come from.
    const label =
      kind.endsWith("string") || kind === "array"
        ? kind
        : `${kind} ${snapshot.strings[snapshot.nodes[i + name]!]!.slice(0, 60) || "(anonymous)"}`;
    const entry = result.get(label) ?? { count: 0, bytes: 0 };
    entry.count++;
    entry.bytes += snapshot.nodes[i + size]!;
    result.set(label, entry);
  }
  return result;
}

async function main(): Promise<void> {
  buildChildren();
  const baseEnv = { PATH: process.env.PATH, NODE_ENV: "production" };
  const localnet = await Child.start("localnet", childScript("children/localnet"), {
    env: { ...baseEnv, BENCH_NAMES: "1000" },
  });
  const gateway = await Child.start("gateway", childScript("children/gateway"), {
    env: {
      ...baseEnv,
      ...startEnvFor(NPM_START, process.env),
      RPC_URL: localnet.url,
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      SHUTDOWN_GRACE_MS: "100",
    },
    execArgv: nodeFlags,
  });
  const dir = mkdtempSync(join(tmpdir(), "inflight-heap-"));
  const sockets: Socket[] = [];
  try {
    const { entries } = localnet.info as { entries: WorkingSetEntry[] };
    const { paths } = buildWorkload(entries, createRng(2).next, { length: 1 << 12, exponent: 1, solShare: 0.35 });
    // Twice: the second pass runs optimized code, as under load.
    await fetchAll(gateway.url, paths, 16);
    await fetchAll(gateway.url, paths, 16);
    const { port, hostname } = new URL(gateway.url);
    let answered = 0;
    for (let i = 0; i < requests; i++) {
      const socket = connect(Number(port), hostname)
        .on("data", () => answered++)
        .on("error", () => {});
      sockets.push(socket);
    }
    await sleep(1000);
    const idle = await gateway.call<string>("heapSnapshot", join(dir, "idle.heapsnapshot"));
    await localnet.call("latency", 600_000);
    sockets.forEach((socket, i) => socket.write(`GET ${paths[i % paths.length]} HTTP/1.1\r\nHost: gateway\r\n\r\n`));
    await sleep(3000);
    const inFlight = await gateway.call<string>("heapSnapshot", join(dir, "in-flight.heapsnapshot"));
    if (answered) console.log(`${answered} requests were answered before the snapshot: they are not in flight`);
    const before = kinds(idle);
    const after = kinds(inFlight);
    const rows = [...after].map(([kind, { count, bytes }]) => {
      const was = before.get(kind) ?? { count: 0, bytes: 0 };
      return { kind, count: (count - was.count) / requests, bytes: (bytes - was.bytes) / requests };
    });
    rows.sort((a, b) => b.bytes - a.bytes);
    const total = rows.reduce((sum, row) => sum + row.bytes, 0);
    console.log(
      `gateway: node ${nodeFlags.join(" ")}; ${requests} requests in flight, each waiting on its first RPC read`,
    );
    console.log(
      `V8 heap per request in flight: ${Math.round(total)} bytes (self sizes of everything the snapshot reaches)\n`,
    );
    console.log("| kind | objects per request | bytes per request |\n| --- | --- | --- |");
    for (const row of rows.filter((row) => row.bytes >= 16))
      console.log(`| ${row.kind} | ${row.count.toFixed(1)} | ${Math.round(row.bytes)} |`);
  } finally {
    for (const socket of sockets) socket.destroy();
    await localnet.call("latency", 0).catch(() => {});
    await gateway.stop();
    await localnet.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
