import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { DEMO_FIXTURE_PATH, loadFixtureFile, startLocalnet } from "../src/localnet/index.js";
import { npmStart, startEnvFor } from "../testkit/npm-start.js";
import { fetchAll, runLoad } from "./load.js";

/**
 * `npm run bench:ab -- <dir> [<dir> …]`: gateway CPU per answer of several
 * builds of this project (each dir holds a built `dist/`, e.g. a git
 * worktree of an older commit after `npm ci && npm run build`), measured in
 * alternation so that the machine's slow and fast phases fall on every side.
 * Each round starts each build fresh with `npm start`'s node flags, warms
 * it up, then reads its process CPU (/proc, user + system) across a load
 * window: 0 ms RPC, the demo names, `AB_CONNECTIONS` (64) connections.
 * A dir may carry extra node flags after a `|`: `.|--v8-pool-size=4`.
 * Gateway settings that shape the path measured are passed on from this
 * process's environment (GATEWAY_SETTINGS): `RESOLVE_CACHE_TTL_MS=60000`
 * makes every measured answer a cache hit; without it every request resolves.
 */

const rounds = Number(process.env.AB_ROUNDS ?? 5);
const seconds = Number(process.env.AB_DURATION_S ?? 4);
const connections = Number(process.env.AB_CONNECTIONS ?? 64);
const builds = process.argv.slice(2);
if (builds.length === 0) {
  console.error("usage: npm run bench:ab -- <dir> [<dir> …]   (a dir may end in |<node flags>)");
  process.exit(2);
}

const NAMES = ["bonfida.sns", "v2-sol.sns", "stale-v2.sns", "v1-sol.sns", "missing-name.sns", "plain.sol", "dex.bonfida.sns", "a.b.c.sns"];
const paths = NAMES.map((name) => `/resolve/${name}`);
const CLOCK_TICKS_PER_S = 100;
const GATEWAY_SETTINGS = ["RESOLVE_CACHE_TTL_MS", "NFT_HOLDER_TTL_MS", "RPC_MAX_IN_FLIGHT", "BATCH_WINDOW_MS"];
const settings = Object.fromEntries(
  GATEWAY_SETTINGS.flatMap((name) => (process.env[name] === undefined ? [] : [[name, process.env[name]!]])),
);

/** User + system CPU of a process so far, in µs (fields 14 and 15 of /proc/<pid>/stat). */
function cpuUsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS_PER_S;
}

async function measure(build: string, rpcUrl: string): Promise<{ usPerAnswer: number; answers: number; mismatches: number }> {
  const [dir, extra] = build.split("|");
  const start = npmStart();
  const child = spawn(
    process.execPath,
    [...start.nodeFlags, ...(extra ? extra.trim().split(/\s+/) : []), resolve(dir!, "dist/platform/node.js")],
    {
      env: { ...startEnvFor(start, process.env), ...settings, PATH: process.env.PATH, PORT: "0", HOST: "127.0.0.1", RPC_URL: rpcUrl, LOG_LEVEL: "info" },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  try {
    let output = "";
    const url = await new Promise<string>((found, failed) => {
      child.once("exit", (code) => failed(new Error(`${dir}: gateway exited (${code}) before listening`)));
      child.stdout!.on("data", (chunk: Buffer) => {
        output += chunk;
        const listening = /"url":"(http:[^"]+)"/.exec(output);
        if (listening) found(listening[1]!);
      });
    });
    child.stdout!.removeAllListeners("data");
    child.stdout!.resume();
    const answers = await fetchAll(url, paths, 4);
    const load = { url, connections, sequence: paths, start: 0, expected: new Map(paths.map((p, i) => [p, answers[i]!])), branchOf: new Map() };
    await runLoad({ ...load, durationS: 1.5 });
    const before = cpuUsOf(child.pid!);
    const result = await runLoad({ ...load, durationS: seconds });
    const used = cpuUsOf(child.pid!) - before;
    return { usPerAnswer: used / Math.max(1, result.responses), answers: result.responses, mismatches: result.mismatches };
  } finally {
    child.kill("SIGTERM");
    if (child.exitCode === null) await new Promise((exited) => child.once("exit", exited));
  }
}

const localnet = await startLocalnet({ ledger: await loadFixtureFile(DEMO_FIXTURE_PATH) });
console.log(`gateway settings: ${Object.entries(settings).map(([name, value]) => `${name}=${value}`).join(" ") || "defaults"}`);
const results = new Map<string, number[]>(builds.map((build) => [build, []]));
for (let round = 1; round <= rounds; round++) {
  for (const build of builds) {
    const { usPerAnswer, answers, mismatches } = await measure(build, localnet.url);
    results.get(build)!.push(usPerAnswer);
    console.log(`round ${round}  ${build}: ${answers} answers, ${usPerAnswer.toFixed(1)} µs CPU per answer, ${mismatches} mismatches`);
  }
}
for (const [build, values] of results) {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  console.log(`${build}: median ${median.toFixed(1)} µs (${sorted[0]!.toFixed(1)}–${sorted.at(-1)!.toFixed(1)}); ${values.map((v) => v.toFixed(0)).join(", ")}`);
}
await localnet.close();
process.exit(0);
