import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";

/*
 * The start of every SDK worker thread's source (plain CommonJS: a function's
 * toString would carry the test transformer's rewrites into the worker). It
 * defines `parentPort`, `workerData`, `path`, `pathToFileURL`, `web3` (the very
 * web3.js instance the SDK's ESM build imports: web3.js has no "exports" map),
 * `sdkEntry` (that ESM build) and `connectionTo(url)`.
 */
export const SDK_WORKER_PRELUDE = `
const { parentPort, workerData } = require("node:worker_threads");
const { createRequire } = require("node:module");
const path = require("node:path");
const { pathToFileURL } = require("node:url");

const packageRequire = createRequire(workerData.packageJson);
// The SDK's bigint-buffer (under @solana/buffer-layout-utils) runs its pure-JS code, as its install script
// (a native build) is denied in package.json's allowScripts. Loaded first, without its notice about that.
{
  const warn = console.warn;
  console.warn = () => {};
  try {
    createRequire(packageRequire.resolve("@solana/buffer-layout-utils"))("bigint-buffer");
  } finally {
    console.warn = warn;
  }
}
const web3 = packageRequire("@solana/web3.js");
const sdkEntry = path.join(path.dirname(packageRequire.resolve("@bonfida/spl-name-service")), "..", "esm", "index.mjs");
const connections = new Map();

// findProgramAddressSync is a pure function of its seeds and program. The SDK
// derives the same keys several times per call (a domain key directly, then as
// the parent of its record keys); caching it changes no outcome and saves
// most of the oracle's curve arithmetic.
const findProgramAddressSync = web3.PublicKey.findProgramAddressSync;
const derived = new Map();
web3.PublicKey.findProgramAddressSync = function (seeds, programId) {
  const key = seeds.map((seed) => Buffer.from(seed).toString("hex")).join(".") + "@" + programId.toBase58();
  let found = derived.get(key);
  if (!found) {
    found = findProgramAddressSync.call(this, seeds, programId);
    derived.set(key, found);
  }
  return [found[0], found[1]];
};

function connectionTo(url) {
  let connection = connections.get(url);
  if (!connection) {
    connection = new web3.Connection(url, "processed");
    connections.set(url, connection);
  }
  return connection;
}
`;

interface Reply<Outcome> {
  readonly id?: number;
  readonly outcome?: Outcome;
  readonly ready?: boolean;
}

/**
 * A worker thread running `source` (which starts with SDK_WORKER_PRELUDE,
 * posts `{ ready: true }` once loaded, then answers each `{ id, … }` message
 * with `{ id, outcome }`). A crash rejects every pending call and any later one.
 */
export class SdkWorker<Outcome> {
  readonly #worker: Worker;
  readonly #pending = new Map<number, { resolve(outcome: Outcome): void; reject(error: unknown): void }>();
  #nextId = 0;
  #failure: unknown;

  private constructor(worker: Worker) {
    this.#worker = worker;
    worker.on("message", (reply: Reply<Outcome>) => {
      if (reply.id === undefined || !reply.outcome) return;
      this.#pending.get(reply.id)?.resolve(reply.outcome);
      this.#pending.delete(reply.id);
    });
    const fail = (error: unknown) => {
      this.#failure = error;
      for (const pending of this.#pending.values()) pending.reject(error);
      this.#pending.clear();
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`SDK worker exited with code ${code}`)));
  }

  static async start<Outcome>(source: string, workerData: object = {}): Promise<SdkWorker<Outcome>> {
    const packageJson = fileURLToPath(new URL("../package.json", import.meta.url));
    const worker = new Worker(source, { eval: true, workerData: { packageJson, ...workerData } });
    await new Promise<void>((resolve, reject) => {
      worker.once("error", reject);
      worker.once("message", (reply: Reply<Outcome>) =>
        reply.ready ? resolve() : reject(new Error("SDK worker did not start")),
      );
    });
    return new SdkWorker<Outcome>(worker);
  }

  /** Posts `message` with a fresh id; resolves with the worker's outcome for it. */
  call(message: object): Promise<Outcome> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ ...message, id });
    });
  }

  async close(): Promise<void> {
    this.#worker.removeAllListeners("exit");
    await this.#worker.terminate();
  }
}
