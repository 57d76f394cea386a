import { SDK_WORKER_PRELUDE, SdkWorker } from "../sdk-worker.js";
import type { SdkErrorClass } from "./types.js";

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

export class SdkOracle {
  private constructor(private readonly worker: SdkWorker<SdkObserved>) {}

  static async start(): Promise<SdkOracle> {
    return new SdkOracle(await SdkWorker.start<SdkObserved>(WORKER_SOURCE, { sdkTypes: SDK_ERROR_TYPES }));
  }

  /** `resolve(new Connection(rpcUrl, "processed"), domain, config)`, classified. */
  resolve(rpcUrl: string, domain: string, config?: SdkResolveConfig): Promise<SdkObserved> {
    return this.worker.call({ url: rpcUrl, domain, config: config ?? null });
  }

  close(): Promise<void> {
    return this.worker.close();
  }
}
