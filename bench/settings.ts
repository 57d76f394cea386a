import { CONFIG_VARIABLES } from "../src/config.js";

// Every section of `npm run bench` and every knob it reads, in one place: the script that runs the
// section, what it measures, and each knob's environment variable, type, default and meaning. The
// environment overrides a default; `npm run bench -- help` prints this file as a table, and
// test/bench/settings.test.ts checks that bench/README.md's Knobs table lists every variable.
// A section is added here (and its script reads `settingsFor("<section>")`), nowhere else.

/** One knob: read from `env` when set (non-empty), else `fallback`. */
export interface Knob<T> {
  readonly env: `BENCH_${string}`;
  readonly fallback: T;
  /** The default as a user would type it, for the help table. */
  readonly shown: string;
  readonly about: string;
  read(raw: string): T;
}

const nonNegative = (env: string, raw: string) => {
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${env} must be a non-negative number, got ${raw}`);
  return value;
};

function number(env: `BENCH_${string}`, fallback: number, about: string): Knob<number> {
  return { env, fallback, shown: String(fallback), about, read: (raw) => nonNegative(env, raw) };
}

/** Comma-separated non-negative numbers. */
function numbers(env: `BENCH_${string}`, fallback: readonly number[], about: string): Knob<readonly number[]> {
  return {
    env,
    fallback,
    shown: fallback.join(","),
    about,
    read: (raw) => raw.split(",").map((item) => nonNegative(env, item.trim())),
  };
}

function choice<const T extends string>(
  env: `BENCH_${string}`,
  choices: readonly T[],
  fallback: T,
  about: string,
): Knob<T> {
  return {
    env,
    fallback,
    shown: fallback,
    about: `${about} (${choices.join(" | ")})`,
    read: (raw) => {
      if (!(choices as readonly string[]).includes(raw))
        throw new Error(`${env} must be one of ${choices.join(", ")}, got ${raw}`);
      return raw as T;
    },
  };
}

/** Free text: a path, a list of ids; undefined when unset. */
function text(env: `BENCH_${string}`, about: string, shown = ""): Knob<string | undefined> {
  return { env, fallback: undefined, shown, about, read: (raw) => raw };
}

/** Comma-separated words; undefined when unset. */
function list(env: `BENCH_${string}`, about: string): Knob<readonly string[] | undefined> {
  return {
    env,
    fallback: undefined,
    shown: "",
    about,
    read: (raw) =>
      raw
        .split(",")
        .map((item) => item.trim())
        .filter(Boolean),
  };
}

/** `1` or `0`. */
function flag(env: `BENCH_${string}`, fallback: boolean, about: string): Knob<boolean> {
  return {
    env,
    fallback,
    shown: fallback ? "1" : "0",
    about,
    read: (raw) => {
      if (raw !== "0" && raw !== "1") throw new Error(`${env} must be 0 or 1, got ${raw}`);
      return raw === "1";
    },
  };
}

// Knobs shared by several sections, each section choosing its default.
const durationS = (fallback: number) => number("BENCH_DURATION_S", fallback, "seconds measured per window");
const warmupS = (fallback: number) => number("BENCH_WARMUP_S", fallback, "seconds of warm-up load before each window");
const rounds = (fallback: number, about = "repetitions, the variants alternating") =>
  number("BENCH_ROUNDS", fallback, about);
const connections = (fallback: number, about = "concurrent connections of the load") =>
  number("BENCH_CONNECTIONS", fallback, about);
const seed = number("BENCH_SEED", 1, "seed of the generated working set and request sequence");
const names = number("BENCH_NAMES", 1000, "names in the generated working set");
const zipf = number("BENCH_ZIPF_S", 1, "Zipf exponent of name ranks (1: the top 10 names take ~40% of requests)");
const solShare = number("BENCH_SOL_SHARE", 0.35, "share of requests for `.sol` (the rest `.sns`)");
const out = (file: string) => text("BENCH_OUT", "where the JSON report is written", `bench/results/${file}`);
const nodeFlags = {
  env: "BENCH_GATEWAY_NODE_FLAGS",
  fallback: undefined,
  shown: "`npm start`'s",
  about: "node flags of the gateway processes (space-separated) instead of those of `npm start` (testkit/npm-start.ts)",
  read: (raw: string) => raw.split(/\s+/).filter(Boolean),
} as const satisfies Knob<readonly string[] | undefined>;

export const SECTIONS = {
  resolve: {
    script: "run.ts",
    about: "resolution vs the SDK baseline: RPC latency {0,20,100} ms × c{1..1024} and the cache cell, checked answers",
    knobs: {
      durationS: durationS(4),
      warmupS: warmupS(1),
      rounds: rounds(3, "interleaved repetitions of every cell, gateway and baseline alternating which goes first"),
      seed,
      names,
      zipfExponent: zipf,
      solShare,
      only: list("BENCH_ONLY", "comma-separated cell ids, e.g. `0ms-c64,20ms-c64,20ms-c64-cache`"),
      profile: choice(
        "BENCH_PROFILE",
        ["0", "1", "all", "survivors"],
        "0",
        "`1`: CPU-profile the gateway(s) in each measured window; `all`: the baseline too; " +
          "`survivors`: the gateways' allocations that outlived a scavenge, by function (V8's sampling heap profiler)",
      ),
      out: out("latest.json"),
      gatewayNodeFlags: nodeFlags,
      gatewayLogDir: text(
        "BENCH_GATEWAY_LOG_DIR",
        "keep the gateways' request logs (server-side latency) here instead of /dev/null",
      ),
      gatewayBuild: text(
        "BENCH_GATEWAY_BUILD",
        "a directory holding another build of this project (`npm ci && npm run build` done there): the gateways are that build, " +
          "with its own pino, started with BENCH_GATEWAY_NODE_FLAGS or else `npm start`'s flags of this build; the routes section is skipped",
      ),
      baselineSharedAgent: flag(
        "BENCH_BASELINE_SHARED_AGENT",
        false,
        "`1`: the baseline's per-request Connections share one keep-alive agent (upstream runs on Workers, whose fetch pools connections)",
      ),
    },
  },
  bulk: {
    script: "bulk.ts",
    about:
      "N names as one POST /resolve vs N GETs at c64 vs the SDK's resolve at c64: wall time, RPC requests, p99; CPU per name of a POST vs per GET answer",
    knobs: {
      names,
      latenciesMs: numbers(
        "BENCH_LATENCY_MS",
        [0, 20],
        "delays the localnet adds to every RPC answer, one cell each, comma-separated",
      ),
      connections: connections(64, "concurrency of the GETs and of the SDK"),
      rounds: rounds(3, "measured runs per variant and latency, the variants alternating (after one warm-up run each)"),
      seed,
      out: out("bulk.json"),
      part: choice(
        "BENCH_BULK_PART",
        ["all", "compare", "cpu"],
        "all",
        "`compare`: POST vs GETs vs the SDK; `cpu`: CPU per name of 1,000-name POSTs of new names vs per GET answer, and GET p99 at c64 beside 4 POSTs",
      ),
      bodies: number(
        "BENCH_BODIES",
        20,
        "POST bodies of 1,000 new plain `.sns` names measured by the cpu part (after 2 warm-up bodies)",
      ),
      profile: choice(
        "BENCH_PROFILE",
        ["0", "1"],
        "0",
        "`1`: the cpu part CPU-profiles the gateway over its POST bodies only",
      ),
    },
  },
  routes: {
    script: "routes.ts",
    about:
      "wallet, reverse and transaction routes vs the SDK functions (demo ledger, 20 ms, c16); part of the default run",
    knobs: { durationS: durationS(4) },
  },
  scale: {
    script: "working-set-scale.ts",
    about: "repeat lookups and RSS at 1,000 vs 100,000 names",
    knobs: {
      sizes: numbers("BENCH_NAMES", [1000, 100_000], "working-set sizes measured, comma-separated (at least 50 each)"),
      seed,
      connections: connections(64, "concurrency of the repeat lookups"),
      durationS: durationS(5),
      warmupS: warmupS(1),
      rounds: rounds(1, "fresh gateways per size"),
      solShare,
      gatewayNodeFlags: nodeFlags,
      out: out("scale-latest.json"),
      profile: choice("BENCH_PROFILE", ["0", "1"], "0", "`1`: CPU-profile the gateway's repeat-lookup window"),
    },
  },
  memory: {
    script: "memory.ts",
    about: "where the gateway's RSS is, phase by phase",
    knobs: {
      durationS: durationS(3),
      phases: numbers("BENCH_CONNECTIONS", [16, 64, 1024], "concurrency of each load phase, comma-separated"),
      names,
      gatewayNodeFlags: nodeFlags,
      out: out("memory.json"),
    },
  },
  inflight: {
    script: "inflight-heap.ts",
    about: "V8 heap per request in flight, by object kind",
    knobs: { requests: connections(1024, "requests held in flight at once"), gatewayNodeFlags: nodeFlags },
  },
  ceiling: {
    script: "ceiling.ts",
    about:
      "the yardstick: the gateway beside a bare node:http and a bare Hono server answering one constant envelope, " +
      "the same load in alternation: req/s, CPU µs per answer, the gateway's share of each",
    knobs: {
      rounds: rounds(3, "rounds, each server once per round, the first server changing every round"),
      durationS: durationS(4),
      connections: connections(64),
      latencyMs: number("BENCH_LATENCY_MS", 0, "delay the localnet adds to every RPC answer"),
      seed,
      names,
      zipfExponent: zipf,
      solShare,
      gatewayNodeFlags: nodeFlags,
    },
  },
  alloc: {
    script: "allocation.ts",
    about: "bytes allocated per answer, by package and function (RESOLVE_CACHE_TTL_MS=60000: every answer a cache hit)",
    knobs: {
      durationS: durationS(4),
      connections: connections(64),
      latencyMs: number("BENCH_LATENCY_MS", 0, "delay the localnet adds to every RPC answer"),
      survivors: flag(
        "BENCH_SURVIVORS",
        false,
        "`1`: only what outlived a young-generation collection (copied, then promoted or still live): the collector's work",
      ),
    },
  },
  rpc: {
    script: "rpc-exchange.ts",
    about: "gateway CPU per RPC exchange: request() vs dispatch vs fetch",
    knobs: {
      rounds: rounds(5),
      requests: number("BENCH_REQUESTS", 1500, "exchanges per round and client"),
      concurrency: numbers("BENCH_CONNECTIONS", [1, 8], "exchanges in flight, comma-separated"),
      accounts: number("BENCH_ACCOUNTS", 64, "accounts per getMultipleAccounts answer"),
      keys: number("BENCH_KEYS", 300, "account keys per request"),
    },
  },
  ab: {
    script: "cpu-ab.ts",
    args: "<dir>[|<node flags>] <dir>…",
    about:
      "gateway CPU per answer of several builds, alternating (each `<dir>` holds a built checkout; by default started with this build's `npm start` flags)",
    knobs: {
      rounds: rounds(5),
      durationS: durationS(4),
      connections: connections(64),
      latencyMs: number("BENCH_LATENCY_MS", 0, "delay the localnet adds to every RPC answer"),
      workload: choice(
        "BENCH_WORKLOAD",
        ["demo", "bench"],
        "demo",
        "the demo ledger's names, or the resolve section's generated working set",
      ),
      seed,
      names,
      zipfExponent: zipf,
      solShare,
    },
  },
  wave: {
    script: "wave-trace.ts",
    about: "where a request's time goes at 20ms-c64; BENCH_VARIANTS compares settings in alternation",
    knobs: {
      latencyMs: number("BENCH_LATENCY_MS", 20, "delay the localnet adds to every RPC answer"),
      connections: connections(64),
      durationS: durationS(3),
      rounds: rounds(1),
      variants: text(
        "BENCH_VARIANTS",
        "gateways differing in environment variables, `;`-separated, e.g. `RPC_SETTLE_SLICE=0;RPC_SETTLE_SLICE=32`, measured in alternation",
      ),
      timeline: flag("BENCH_TIMELINE", false, "`1`: print 80 ms of event-loop turns"),
      profileDir: text("BENCH_PROFILE_DIR", "write a CPU profile of each traced gateway here"),
      gatewayNodeFlags: nodeFlags,
    },
  },
  index: {
    script: "tokenized-index.ts",
    nodeFlags: ["--expose-gc"],
    about: "tokenized-domain index: bootstrap time and memory",
    knobs: { records: number("BENCH_RECORDS", 100_000, "NFT records in the index") },
  },
  failover: {
    script: "failover.ts",
    about:
      "/resolve over two RPC endpoints, the first failing some reads (503, or no answer with and without hedging), vs one healthy endpoint",
    knobs: {
      durationS: durationS(8),
      connections: connections(16),
      latencyMs: number("BENCH_LATENCY_MS", 20, "delay the localnet adds to every RPC answer"),
      failureRate: number("BENCH_FAILURE_RATE", 0.1, "share of the first endpoint's RPC requests that fail"),
      hedgeMs: number("BENCH_HEDGE_MS", 50, "RPC_HEDGE_MS of the hedging variant"),
    },
  },
  workerd: {
    script: "workerd.ts",
    about:
      "Node vs the Workers build under workerd, same localnet: req/s, CPU per request and isolate start-up beside a constant Worker; /domains with and without the index object",
    knobs: {
      durationS: durationS(10),
      latencyMs: number("BENCH_LATENCY_MS", 20, "delay the localnet adds to every RPC answer (the /domains part)"),
      holdings: number("BENCH_HOLDINGS", 8, "tokenized domains the /domains wallet holds"),
    },
  },
  profile: {
    script: "profile.ts",
    args: "<file.cpuprofile> [top]",
    about: "summary of a CPU profile written by BENCH_PROFILE (self time by function)",
    knobs: {},
  },
} as const satisfies Record<
  string,
  { script: string; about: string; knobs: Record<string, Knob<unknown>>; args?: string; nodeFlags?: readonly string[] }
>;

/** Knobs read by the shared load generator (bench/load.ts) in every section that drives HTTP load. */
export const COMMON_KNOBS = {
  client: choice(
    "BENCH_CLIENT",
    ["raw", "autocannon"],
    "raw",
    "load generator: raw sockets (bench/http-client.ts) or autocannon (the client of results before November 2026)",
  ),
} as const;

export type Section = keyof typeof SECTIONS;
type Values<K> = { readonly [P in keyof K]: K[P] extends Knob<infer T> ? T : never };
export type SettingsOf<S extends Section> = Values<(typeof SECTIONS)[S]["knobs"]>;

function valuesOf<K extends Record<string, Knob<unknown>>>(knobs: K, env: NodeJS.ProcessEnv): Values<K> {
  const values: Record<string, unknown> = {};
  for (const [key, knob] of Object.entries(knobs)) {
    const raw = env[knob.env]?.trim();
    values[key] = raw ? knob.read(raw) : knob.fallback;
  }
  return values as Values<K>;
}

/** A section's settings: each knob from the environment, or its default. */
export function settingsFor<S extends Section>(section: S, env: NodeJS.ProcessEnv = process.env): SettingsOf<S> {
  return valuesOf(SECTIONS[section].knobs as Record<string, Knob<unknown>>, env) as SettingsOf<S>;
}

export function commonSettings(env: NodeJS.ProcessEnv = process.env): Values<typeof COMMON_KNOBS> {
  return valuesOf(COMMON_KNOBS, env);
}

/**
 * The bench's load comes from one address, which the gateway counts as one client: its per-client call
 * allowances (src/http/clients/client-call-limit.ts) would measure refusals, not answers. Off unless set.
 */
export const ONE_CLIENT_UNLIMITED: Readonly<Record<string, string>> = {
  RPC_RATE_LIMIT: "0",
  RPC_OVERRIDE_RATE_LIMIT: "0",
};

/** The bench sets these itself for every gateway it starts. */
const OWN_VARIABLES = new Set(["PORT", "HOST", "RPC_URL"]);

/**
 * Gateway settings (the variables of src/config.ts) set in this environment, passed to the gateways
 * a section starts so that any of them can be tried from the bench, e.g.
 * `NFT_HOLDER_TTL_MS=2000 npm run bench -- resolve`. A section's own choices are applied after these.
 */
export function gatewayOverrides(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const result: Record<string, string> = { ...ONE_CLIENT_UNLIMITED };
  for (const name of CONFIG_VARIABLES) {
    const value = env[name];
    if (value !== undefined && value !== "" && !OWN_VARIABLES.has(name)) result[name] = value;
  }
  return result;
}

/** Every knob once per variable, with the sections that read it and their defaults, for help and the bench/README.md check. */
export function knobTable(): { env: string; sections: string; defaults: string; about: string }[] {
  const rows = new Map<string, { sections: string[]; defaults: string[]; about: string }>();
  const add = (section: string, knob: Knob<unknown>) => {
    const row = rows.get(knob.env) ?? { sections: [], defaults: [], about: knob.about };
    row.sections.push(section);
    row.defaults.push(knob.shown === "" ? "" : `${section}: ${knob.shown}`);
    rows.set(knob.env, row);
  };
  for (const knob of Object.values(COMMON_KNOBS)) add("all", knob);
  for (const [section, { knobs }] of Object.entries(SECTIONS))
    for (const knob of Object.values(knobs) as Knob<unknown>[]) add(section, knob);
  return [...rows].map(([env, row]) => ({
    env,
    sections: row.sections.join(", "),
    defaults: row.defaults.filter(Boolean).join("; "),
    about: row.about,
  }));
}
