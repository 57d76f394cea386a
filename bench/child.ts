import { type ChildProcess, fork } from "node:child_process";
import { openSync } from "node:fs";
import type { Ready, Reply, Usage } from "./ipc.js";

export interface ChildOptions {
  readonly env: Record<string, string | undefined>;
  /** Extra node flags, e.g. `--cpu-prof`. */
  readonly execArgv?: readonly string[];
  /** Where the child's stdout goes; /dev/null unless told otherwise. */
  readonly stdoutPath?: string;
}

/** Parent side of one server child: its pid, URL and a request/reply channel. */
export class Child {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();

  private constructor(
    readonly name: string,
    readonly process: ChildProcess,
    readonly url: string,
    readonly info: unknown,
  ) {
    process.on("message", (message: Reply) => {
      if (message?.kind !== "reply") return;
      const waiter = this.waiting.get(message.id);
      if (!waiter) return;
      this.waiting.delete(message.id);
      if (message.ok) waiter.resolve(message.value);
      else waiter.reject(new Error(`${name}: ${message.error}`));
    });
    process.once("exit", (code, signal) => {
      for (const waiter of this.waiting.values()) waiter.reject(new Error(`${name} exited (${code ?? signal})`));
      this.waiting.clear();
    });
  }

  static start(name: string, script: string, options: ChildOptions): Promise<Child> {
    const stdout = openSync(options.stdoutPath ?? "/dev/null", "w");
    const child = fork(script, [], {
      env: options.env as NodeJS.ProcessEnv,
      execArgv: [...(options.execArgv ?? [])],
      stdio: ["ignore", stdout, "inherit", "ipc"],
      // Large ready payloads (the working set) go through the advanced serializer faster.
      serialization: "advanced",
    });
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`${name} exited with ${code} before it was ready`));
      child.once("exit", onExit);
      child.once("error", reject);
      child.on("message", function onMessage(message: Ready) {
        if (message?.kind !== "ready") return;
        child.off("message", onMessage);
        child.off("exit", onExit);
        resolve(new Child(name, child, message.url, message.info));
      });
    });
  }

  get pid(): number {
    return this.process.pid!;
  }

  call<T>(op: string, arg?: unknown): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.process.send({ kind: "request", id, op, arg });
    });
  }

  usage(): Promise<Usage> {
    return this.call<Usage>("usage");
  }

  /** Asks for a clean exit (profiles are written then); kills after a grace period. */
  async stop(): Promise<void> {
    if (this.process.exitCode !== null || this.process.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.process.once("exit", () => resolve()));
    const timer = setTimeout(() => this.process.kill("SIGKILL"), 15_000);
    await this.call("stop").catch(() => undefined);
    await exited;
    clearTimeout(timer);
  }
}
