import { type ChildProcess, spawn } from "node:child_process";
import { type Server, createServer } from "node:net";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** A loopback port held by a listener of this process until `release`, as another program would hold it. */
export async function holdPort(host = "127.0.0.1"): Promise<{ readonly port: number; release(): Promise<void> }> {
  const server: Server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, resolve);
  });
  const { port } = server.address() as { port: number };
  return { port, release: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

export interface EntryProcess {
  readonly child: ChildProcess;
  readonly stdout: () => string;
  readonly stderr: () => string;
  /** The exit code (null when ended by a signal). */
  readonly exited: Promise<number | null>;
  /** Resolves with the first match of `pattern` on stdout; rejects if the process exits first. */
  waitFor(pattern: RegExp): Promise<RegExpExecArray>;
  /** SIGTERM to the process and everything it started (its own process group), SIGKILL after 5 s. */
  stop(): Promise<void>;
}

/**
 * A command run from the project root in a process group of its own (so
 * `stop` ends `npm run`'s children too): `node --import tsx <entry>` for a
 * source file, or `npm run <script>` (`npm` as the first word). Its
 * environment is this process's with `env` over it, or `env` alone when
 * `inherit` is false.
 */
export function startEntry(
  command: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  inherit = true,
): EntryProcess {
  const [file, ...args] = command[0] === "npm" ? command : [process.execPath, "--import", "tsx", ...command];
  const environment = inherit ? { ...process.env, ...env } : { ...env };
  const child = spawn(file!, args, { cwd: ROOT, env: environment, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    waitFor(pattern) {
      return new Promise((resolve, reject) => {
        const poll = setInterval(() => {
          const match = pattern.exec(stdout);
          if (match) {
            clearInterval(poll);
            resolve(match);
          }
        }, 20);
        void exited.then((code) => {
          clearInterval(poll);
          reject(new Error(`exited (${code}) before ${pattern}: ${stdout}${stderr}`));
        });
      });
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      process.kill(-child.pid!, "SIGTERM");
      const kill = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), 5000);
      await exited;
      clearTimeout(kill);
    },
  };
}
