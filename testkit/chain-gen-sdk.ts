import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { SDK_WORKER_PRELUDE } from "./sdk-worker-prelude.js";
import type { SdkErrorClass } from "./chain-gen.js";

/*
 * The official SDK (@bonfida/spl-name-service 3.0.26, its ESM build, over
 * web3.js Connections at commitment "processed") as a resolution oracle in a
 * worker thread. Its key derivations and signature checks are pure-JS curve
 * arithmetic; on its own thread they run beside the localnet and the gateway
 * instead of queueing behind them.
 */

export type SdkObserved =
  | { readonly kind: "key"; readonly key: string }
  | { readonly kind: "error"; readonly error: SdkErrorClass | "RpcError"; readonly detail: string };

/** `resolve`'s third argument, with program ids as base58 strings. */
export type SdkResolveConfig =
  | { readonly allowPda: false }
  | { readonly allowPda: "any" }
  | { readonly allowPda: true; readonly programIds: readonly string[] };

const SDK_ERROR_TYPES: readonly SdkErrorClass[] = [
  "DomainDoesNotExist",
  "RecordMalformed",
  "WrongValidation",
  "InvalidRoA",
  "CouldNotFindNftOwner",
  "PdaOwnerNotAllowed",
];

const WORKER_SOURCE = `${SDK_WORKER_PRELUDE}
const sdkTypes = new Set(workerData.sdkTypes);

function toConfig(config) {
  if (config === null) return undefined;
  if (config.allowPda === true) {
    return { allowPda: true, programIds: config.programIds.map((id) => new web3.PublicKey(id)) };
  }
  return config;
}

function classify(error) {
  const detail = error instanceof Error ? error.name + ": " + error.message : String(error);
  if (error instanceof web3.SolanaJSONRPCError) return { kind: "error", error: "RpcError", detail };
  const type = error !== null && typeof error === "object" ? error.type : undefined;
  return { kind: "error", error: typeof type === "string" && sdkTypes.has(type) ? type : "Generic", detail };
}

import(pathToFileURL(sdkEntry).href).then((sdk) => {
  parentPort.on("message", ({ id, url, domain, config }) => {
    sdk.resolve(connectionTo(url), domain, toConfig(config)).then(
      (key) => parentPort.postMessage({ id, outcome: { kind: "key", key: key.toBase58() } }),
      (error) => parentPort.postMessage({ id, outcome: classify(error) }),
    );
  });
  parentPort.postMessage({ ready: true });
});
`;

interface Reply {
  readonly id?: number;
  readonly outcome?: SdkObserved;
  readonly ready?: boolean;
}

export class SdkOracle {
  readonly #worker: Worker;
  readonly #pending = new Map<number, { resolve(outcome: SdkObserved): void; reject(error: unknown): void }>();
  #nextId = 0;
  #failure: unknown;

  private constructor(worker: Worker) {
    this.#worker = worker;
    worker.on("message", (reply: Reply) => {
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

  static async start(): Promise<SdkOracle> {
    const packageJson = fileURLToPath(new URL("../package.json", import.meta.url));
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { packageJson, sdkTypes: SDK_ERROR_TYPES } });
    await new Promise<void>((resolve, reject) => {
      worker.once("error", reject);
      worker.once("message", (reply: Reply) =>
        reply.ready ? resolve() : reject(new Error("SDK worker did not start")),
      );
    });
    return new SdkOracle(worker);
  }

  /** `resolve(new Connection(rpcUrl, "processed"), domain, config)`, classified. */
  resolve(rpcUrl: string, domain: string, config?: SdkResolveConfig): Promise<SdkObserved> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ id, url: rpcUrl, domain, config: config ?? null });
    });
  }

  async close(): Promise<void> {
    this.#worker.removeAllListeners("exit");
    await this.#worker.terminate();
  }
}
