import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { cacheDirFor, compileProject } from "./compile.js";
import { withHardDescriptorLimit } from "./descriptor-limit.js";
import { NPM_START } from "./npm-start.js";

const OUT_DIR = cacheDirFor("sns-gateway-test");
const PROJECT = fileURLToPath(new URL("../tsconfig.build.json", import.meta.url));

/** The environment variable naming the entry testkit/build-once.ts compiled for this test run. */
export const COMPILED_ENTRY_VARIABLE = "SNS_GATEWAY_TEST_ENTRY";

let compiled: string | undefined = process.env[COMPILED_ENTRY_VARIABLE];

/**
 * `src/` compiled as `npm start` runs it: once per `vitest run` (testkit/build-once.ts, before any file
 * starts), else once per process that asks (a benchmark, a test file run outside vitest's global setup).
 * `typeCheck: false` (the global setup: `npm test` has type-checked everything before) emits only.
 */
export function compiledEntry({ typeCheck = true }: { readonly typeCheck?: boolean } = {}): string {
  if (!compiled) {
    const { diagnostics } = compileProject(PROJECT, OUT_DIR, { typeCheck });
    if (diagnostics) throw new Error(`tsc: ${diagnostics}`);
    compiled = `${OUT_DIR}${NPM_START.entry.replace(/^dist\//, "")}`;
  }
  return compiled;
}

export interface ChildGateway {
  readonly url: string;
  readonly process: ChildProcess;
  /** Everything the process wrote to stdout so far (its log lines). */
  readonly output: () => string;
  /** Everything the process wrote to stderr so far (V8's fatal errors). */
  readonly errorOutput: () => string;
  /** Resident set size now, in bytes (Linux /proc VmRSS). */
  rss(): number;
  /** Peak resident set size so far, in bytes (Linux /proc VmHWM). */
  peakRss(): number;
  exited(): Promise<number | null>;
  stop(): Promise<void>;
}

function procStatusBytes(pid: number, field: string): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status);
  if (!match) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(match[1]) * 1024;
}

/**
 * The gateway as a separate process started as `npm start` starts it, listening on an ephemeral loopback port.
 * `entry`: another build's `platform/node.js` (a benchmark measuring older code); default: this tree's.
 */
/**
 * `raiseDescriptorLimit`: the child's soft limit on open descriptors raised to its hard limit (spawned
 * through `sh -c 'ulimit -n …; exec node …'`), for a test that opens more connections than a default
 * soft limit of 1,024 allows.
 */
export async function startChildGateway(
  env: Record<string, string>,
  entry = compiledEntry(),
  { raiseDescriptorLimit = false }: { readonly raiseDescriptorLimit?: boolean } = {},
): Promise<ChildGateway> {
  const argv = [process.execPath, ...NPM_START.nodeFlags, entry];
  const [command, args] = raiseDescriptorLimit ? withHardDescriptorLimit(argv) : [argv[0]!, argv.slice(1)];
  const child = spawn(command, args, {
    env: { ...process.env, ...NPM_START.env, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  let errors = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (errors += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const poll = setInterval(() => {
      const match = /"url":"(http:\/\/[^"]+)"/.exec(output);
      if (match) {
        clearInterval(poll);
        resolve(match[1]!);
      }
    }, 20);
    void exit.then((code) => {
      clearInterval(poll);
      reject(new Error(`gateway exited early (${code}): ${output}${errors}`));
    });
  });
  return {
    url,
    process: child,
    output: () => output,
    errorOutput: () => errors,
    rss: () => procStatusBytes(child.pid!, "VmRSS"),
    peakRss: () => procStatusBytes(child.pid!, "VmHWM"),
    exited: () => exit,
    async stop() {
      if (child.exitCode === null) child.kill("SIGKILL");
      await exit;
    },
  };
}
