/**
 * How `npm start` launches the gateway: the node flags and the entry of
 * package.json's `start` script, held here so that tests and benchmarks start
 * the gateway exactly as production does without reading package.json.
 * test/platform/npm-start.test.ts fails when the two differ.
 */
export interface NpmStart {
  /** Variables set in front of `node` (e.g. `MALLOC_ARENA_MAX=2`): they must be there when the process starts. */
  readonly env: Readonly<Record<string, string>>;
  /** Flags between `node` and the entry script, e.g. `--max-old-space-size=160`. */
  readonly nodeFlags: readonly string[];
  /** The entry script, relative to the project root. */
  readonly entry: string;
}

export const NPM_START: NpmStart = {
  env: {},
  nodeFlags: ["--max-old-space-size=160", "--max-semi-space-size=8", "--v8-pool-size=2"],
  entry: "dist/platform/node/main.js",
};

/** The `start` script package.json must hold for `start`. */
export function startScriptOf(start: NpmStart): string {
  const prefix = Object.entries(start.env).map(([name, value]) => `${name}=${value} `);
  return `${prefix.join("")}node ${[...start.nodeFlags, start.entry].join(" ")}`;
}

/** glibc's allocator reads these when the process starts: a benchmark may try them on the gateway. */
const ALLOCATOR_VARIABLE = /^(MALLOC_[A-Z_]+|GLIBC_TUNABLES)$/;

/**
 * The environment prefix of `npm start` for a gateway child: each variable as
 * the start script sets it unless `env` sets it too, plus any glibc
 * allocator variables set in `env`.
 */
export function startEnvFor(start: NpmStart, env: NodeJS.ProcessEnv): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(start.env)) result[name] = env[name] ?? value;
  for (const [name, value] of Object.entries(env))
    if (ALLOCATOR_VARIABLE.test(name) && value !== undefined) result[name] = value;
  return result;
}
