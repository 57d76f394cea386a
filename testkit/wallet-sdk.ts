import { SDK_WORKER_PRELUDE, SdkWorker } from "./sdk-worker.js";

/*
 * The official SDK's wallet functions (3.0.26, its ESM build, over web3.js
 * Connections at commitment "processed", as upstream builds them) in a
 * worker thread, so their pure-JS key derivations run beside the localnet
 * and the gateway instead of queueing behind them. Each call answers what
 * upstream would serialize, or the type of the error the SDK threw.
 */

export type SdkWalletCall =
  | { readonly op: "domains"; readonly wallet: string }
  | { readonly op: "favorite"; readonly wallet: string }
  | { readonly op: "multipleFavorites"; readonly wallets: readonly string[] }
  | { readonly op: "reverseLookup"; readonly key: string }
  | { readonly op: "subdomains"; readonly parentKey: string };

export type SdkWalletOutcome =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly type: string | undefined; readonly detail: string };

const WORKER_SOURCE = `${SDK_WORKER_PRELUDE}

const byKey = (a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
const pk = (text) => new web3.PublicKey(text);

import(pathToFileURL(sdkEntry).href).then((sdk) => {
  const ops = {
    // Registry-owned names with a reverse, then tokenized ones, each sorted by key (the gateway's order).
    async domains(c, { wallet }) {
      const keys = await sdk.getAllDomains(c, pk(wallet));
      const reverses = await sdk.reverseLookupBatch(c, keys);
      const direct = keys.flatMap((key, i) => (reverses[i] ? [{ domain: reverses[i], key: key.toBase58() }] : [])).sort(byKey);
      const tokenized = (await sdk.getTokenizedDomains(c, pk(wallet)))
        .map((entry) => ({ domain: entry.reverse, key: entry.key.toBase58() }))
        .sort(byKey);
      return [...direct, ...tokenized];
    },
    favorite: (c, { wallet }) => sdk.getFavoriteDomain(c, pk(wallet)),
    multipleFavorites: (c, { wallets }) => sdk.getMultipleFavoriteDomains(c, wallets.map(pk)),
    // The proxy's /reverse-lookup: the registry for the parent, then the reverse.
    async reverseLookup(c, { key }) {
      const { registry } = await sdk.NameRegistryState.retrieve(c, pk(key));
      const isSub = !registry.parentName.equals(sdk.ROOT_DOMAIN_ACCOUNT);
      return sdk.reverseLookup(c, pk(key), isSub ? registry.parentName : undefined);
    },
    subdomains: (c, { parentKey }) => sdk.findSubdomains(c, pk(parentKey)),
  };
  parentPort.on("message", ({ id, url, call }) => {
    Promise.resolve()
      .then(() => ops[call.op](connectionTo(url), call))
      .then(
        (value) => parentPort.postMessage({ id, outcome: { ok: true, value: JSON.parse(JSON.stringify(value ?? null)) } }),
        (error) => {
          const type = error !== null && typeof error === "object" && typeof error.type === "string" ? error.type : undefined;
          const detail = error instanceof Error ? error.name + ": " + error.message : String(error);
          parentPort.postMessage({ id, outcome: { ok: false, type, detail } });
        },
      );
  });
  parentPort.postMessage({ ready: true });
});
`;

export class SdkWalletOracle {
  private constructor(private readonly worker: SdkWorker<SdkWalletOutcome>) {}

  static async start(): Promise<SdkWalletOracle> {
    return new SdkWalletOracle(await SdkWorker.start<SdkWalletOutcome>(WORKER_SOURCE));
  }

  /** Runs `call` against the RPC at `rpcUrl`. */
  run(rpcUrl: string, call: SdkWalletCall): Promise<SdkWalletOutcome> {
    return this.worker.call({ url: rpcUrl, call });
  }

  close(): Promise<void> {
    return this.worker.close();
  }
}
