import { SDK_WORKER_PRELUDE, SdkWorker } from "./sdk-worker.js";

/*
 * The retired upstream hosts' handlers (their worker's route logic), over the official SDK 3.0.26 functions
 * they called (ESM build, web3.js Connections at commitment "processed"), in a worker thread: each call
 * answers the HTTP status and body those hosts sent for it. The legacy profile's departures are applied by
 * the tests, not here: this is what the retired hosts did.
 */

export type LegacyCall =
  | { readonly op: "resolve"; readonly domain: string }
  | { readonly op: "favorite"; readonly owner: string }
  | { readonly op: "multipleFavorites"; readonly owners: string }
  | { readonly op: "domains"; readonly owner: string }
  | { readonly op: "domainKey"; readonly domain: string }
  | { readonly op: "reverseKey"; readonly domain: string; readonly sub: boolean }
  | { readonly op: "reverseLookup"; readonly key: string }
  | { readonly op: "subdomains"; readonly parent: string }
  | { readonly op: "recordKey"; readonly domain: string; readonly record: string }
  | { readonly op: "record"; readonly domain: string; readonly record: string }
  | { readonly op: "records"; readonly domain: string; readonly records: string }
  | { readonly op: "recordV2"; readonly domain: string; readonly record: string }
  | { readonly op: "recordsV2"; readonly domain: string; readonly records: string }
  | { readonly op: "domainData"; readonly domain: string };

export interface LegacyAnswer {
  readonly status: number;
  readonly body: unknown;
}

const WORKER_SOURCE = `${SDK_WORKER_PRELUDE}
const pk = (text) => new web3.PublicKey(text);
const ok = (result) => ({ status: 200, body: JSON.parse(JSON.stringify({ s: "ok", result })) });
const error = (status, result) => ({ status, body: { s: "error", result } });
const recordObject = (r) => ({
  deserialized: r.deserializedContent,
  record: {
    header: {
      stalenessValidation: r.retrievedRecord.header.stalenessValidation,
      rightOfAssociationValidation: r.retrievedRecord.header.rightOfAssociationValidation,
      contentLength: r.retrievedRecord.header.contentLength,
    },
    data: r.retrievedRecord.data.toString("base64"),
  },
});

import(pathToFileURL(sdkEntry).href).then((sdk) => {
  const ops = {
    async resolve(c, { domain }) {
      try {
        return ok((await sdk.resolve(c, domain)).toBase58());
      } catch {
        return error(200, "Domain not found");
      }
    },
    async favorite(c, { owner }) {
      try {
        return ok(await sdk.getFavoriteDomain(c, pk(owner)));
      } catch (e) {
        if (String(e?.message).includes("Favourite domain not found")) return ok(null);
        return error(200, "Invalid domain input");
      }
    },
    async multipleFavorites(c, { owners }) {
      try {
        return ok(await sdk.getMultipleFavoriteDomains(c, owners.split(",").map(pk)));
      } catch {
        return error(200, "Invalid domain input");
      }
    },
    async domains(c, { owner }) {
      try {
        const keys = await sdk.getAllDomains(c, pk(owner));
        const reverses = await sdk.reverseLookupBatch(c, keys);
        const direct = keys.map((key, i) => ({ key, domain: reverses[i] }));
        const tokenized = (await sdk.getTokenizedDomains(c, pk(owner))).map((t) => ({ key: t.key, domain: t.reverse }));
        return ok([...direct, ...tokenized]);
      } catch {
        return error(200, "Invalid domain input");
      }
    },
    async domainKey(c, { domain }) {
      try {
        return ok(sdk.getDomainKeySync(domain).pubkey.toBase58());
      } catch {
        return error(500, "Internal error");
      }
    },
    async reverseKey(c, { domain, sub }) {
      try {
        return ok(sdk.getReverseKeySync(domain, sub).toBase58());
      } catch {
        return error(200, "Invalid domain input");
      }
    },
  };
  Object.assign(ops, {
    async reverseLookup(c, { key }) {
      try {
        return ok(await sdk.reverseLookup(c, pk(key)));
      } catch {
        return error(200, "Invalid input");
      }
    },
    async subdomains(c, { parent }) {
      try {
        return ok(await sdk.findSubdomains(c, sdk.getDomainKeySync(parent).pubkey));
      } catch {
        return error(200, "Invalid input");
      }
    },
    async recordKey(c, { domain, record }) {
      try {
        return ok(sdk.getRecordKeySync(domain, record).toBase58());
      } catch {
        return error(500, "Internal error");
      }
    },
    async record(c, { domain, record }) {
      try {
        return ok((await sdk.getRecord(c, domain, record)).data.toString("base64"));
      } catch {
        return error(500, "Internal error");
      }
    },
    async records(c, { domain, records }) {
      try {
        const list = records.split(",");
        const found = await sdk.getRecords(c, domain, list);
        return ok(list.map((record, i) => ({ record, data: found[i]?.data?.toString("utf-8") })));
      } catch {
        return error(500, "Internal error");
      }
    },
    // The record object without stale and roa, which the profile computes by today's rule (the test adds them).
    async recordV2(c, { domain, record }) {
      try {
        await sdk.NameRegistryState.retrieve(c, sdk.getDomainKeySync(domain).pubkey);
        const r = await sdk.getRecordV2(c, domain, record, { deserialize: true });
        return ok(recordObject(r));
      } catch {
        return error(500, "Internal error");
      }
    },
    async recordsV2(c, { domain, records }) {
      try {
        const list = records.split(",");
        await sdk.NameRegistryState.retrieve(c, sdk.getDomainKeySync(domain).pubkey);
        const found = await sdk.getMultipleRecordsV2(c, domain, list, { deserialize: true });
        const items = [];
        for (const [i, r] of found.entries()) {
          if (!r) break;
          items.push({ type: list[i], ...recordObject(r) });
        }
        return ok(items);
      } catch {
        return error(500, "Internal error");
      }
    },
    async domainData(c, { domain }) {
      try {
        const info = await c.getAccountInfo(sdk.getDomainKeySync(domain).pubkey);
        if (!info) return error(200, "Domain not found");
        return ok(info.data.slice(96).toString("base64"));
      } catch {
        return error(200, "Error fetching domain data");
      }
    },
  });
  parentPort.on("message", ({ id, url, call }) => {
    Promise.resolve()
      .then(() => ops[call.op](connectionTo(url), call))
      .then(
        (outcome) => parentPort.postMessage({ id, outcome }),
        (e) => parentPort.postMessage({ id, outcome: { status: 0, body: String(e) } }),
      );
  });
  parentPort.postMessage({ ready: true });
});
`;

export class LegacySdkOracle {
  private constructor(private readonly worker: SdkWorker<LegacyAnswer>) {}

  static async start(): Promise<LegacySdkOracle> {
    return new LegacySdkOracle(await SdkWorker.start<LegacyAnswer>(WORKER_SOURCE));
  }

  /** What the retired hosts answered to `call`, reading the RPC at `rpcUrl`. */
  run(rpcUrl: string, call: LegacyCall): Promise<LegacyAnswer> {
    return this.worker.call({ url: rpcUrl, call });
  }

  close(): Promise<void> {
    return this.worker.close();
  }
}
