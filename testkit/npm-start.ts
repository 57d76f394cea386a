import { readFileSync } from "node:fs";

/** How `npm start` launches the gateway: environment prefix and node flags of package.json's `start` script. */
export interface NpmStart {
  /** Variables set in front of `node` (e.g. `MALLOC_ARENA_MAX=2`): they must be there when the process starts. */
  readonly env: Readonly<Record<string, string>>;
  /** Flags between `node` and the entry script, e.g. `--max-old-space-size=96`. */
  readonly nodeFlags: readonly string[];
}

const START = /^((?:[A-Z_][A-Z0-9_]*=\S*\s+)*)node((?:\s+--\S+)*)\s+\S+$/;

export function parseStartScript(script: string): NpmStart {
  const match = START.exec(script.trim());
  if (!match) throw new Error(`package.json start script is not "[VAR=value ...] node [--flag ...] entry": ${script}`);
  const env: Record<string, string> = {};
  for (const assignment of match[1]!.trim().split(/\s+/).filter(Boolean)) {
    const at = assignment.indexOf("=");
    env[assignment.slice(0, at)] = assignment.slice(at + 1);
  }
  return { env, nodeFlags: match[2]!.trim().split(/\s+/).filter(Boolean) };
}

/** Tests and benchmarks start the gateway exactly as `npm start` does, read from package.json each time. */
export function npmStart(): NpmStart {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { scripts: { start: string } };
  return parseStartScript(pkg.scripts.start);
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
  for (const [name, value] of Object.entries(env)) if (ALLOCATOR_VARIABLE.test(name) && value !== undefined) result[name] = value;
  return result;
}
