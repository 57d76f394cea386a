import { base64, base64url } from "@scure/base";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { DEMO_FIXTURE_PATH, identity, loadFixtureFile } from "../../src/localnet/index.js";
import { NAME_PROGRAM_ID, SOL_TLD_CUTOFF_SLOT } from "../../src/sns/constants.js";
import { deriveDomainKey, deriveRecordV1Key } from "../../src/sns/derive.js";
import { addressToBytes } from "../../src/sns/bytes.js";
import { encodeNameRegistry } from "../../src/sns/layouts/name-registry.js";
import {
  TWITTER_ROOT_PARENT_REGISTRY,
  TWITTER_VERIFICATION_AUTHORITY,
  deriveReverseTwitterRegistryKey,
  deriveTwitterRegistryKey,
} from "../../src/sns/twitter.js";
import { getAsHost } from "../../testkit/host-request.js";
import { type Answer, type Stack, startStack, describeOnNode } from "../../testkit/stack.js";

// The legacy profile's routes over real HTTP against the localnet, each known client of the retired hosts
// replayed (the request it sends, the fields it reads, the decision it takes), and the departures.

const key = (name: string) => identity(name).address;
const base58Bytes = (address: string) => addressToBytes(address);
const ok = (result: unknown) => ({ s: "ok", result });
const error = (result: string) => ({ s: "error", result });
const BUYER = "Fxuoy3gFjfJALhwkRcuKjRdechcgffUApeYAfMWck6w8";
const NO_FAVOURITE = key("nobody-has-this");

let stack: Stack;
/** The same chain past the `.sol` cutoff slot. */
let pastCutoff: Stack;
/** A gateway answering v1 and legacy, by Host. */
let both: Stack;

beforeAll(async () => {
  const late = await loadFixtureFile(DEMO_FIXTURE_PATH);
  late.slot = SOL_TLD_CUTOFF_SLOT + 10;
  [stack, pastCutoff, both] = await Promise.all([
    startStack(await loadFixtureFile(DEMO_FIXTURE_PATH), { LEGACY_HOSTS: "*" }),
    startStack(late, { LEGACY_HOSTS: "*" }),
    startStack(await loadFixtureFile(DEMO_FIXTURE_PATH), { LEGACY_HOSTS: "sdk-proxy.example" }),
  ]);
});
afterAll(() => Promise.all([stack.close(), pastCutoff.close(), both.close()]));
beforeEach(() => stack.localnet.setFault(null));

describeOnNode("clients of the retired hosts, replayed", () => {
  /** clip-wallet's SnsBackend: `.sol` stripped, a string `result` under `s: "ok"` is the owner. */
  const clipWalletResolve = async (name: string): Promise<string | null> => {
    const answer = (await stack.get(`/resolve/${name}`)).body as { s: string; result: unknown };
    return answer.s === "ok" && typeof answer.result === "string" ? answer.result : null;
  };
  /** clip-wallet's favourite: `result.reverse` and `result.stale`; `s: "error"` is "none". */
  const clipWalletFavorite = async (wallet: string) => {
    const answer = (await stack.get(`/favorite-domain/${wallet}`)).body as {
      s: string;
      result: { reverse: string; stale: boolean };
    };
    return answer.s === "ok" ? { reverse: answer.result.reverse, stale: answer.result.stale } : null;
  };

  it("clip-wallet: a bare label and sub.label resolve to their owners; an absent name is none", async () => {
    expect(await clipWalletResolve("plain")).toBe(key("bob"));
    expect(await clipWalletResolve("dex.bonfida")).toBe(key("bob"));
    expect(await clipWalletResolve("bonfida")).toBe(key("carol"));
    expect(await clipWalletResolve("nobody-registered-this")).toBeNull();
  });

  it("clip-wallet: the favourite's reverse and stale; a wallet without one reads as none", async () => {
    expect(await clipWalletFavorite(key("bob"))).toEqual({ reverse: "plain", stale: false });
    expect(await clipWalletFavorite(key("erin"))).toEqual({ reverse: "dex.bonfida", stale: true });
    expect(await clipWalletFavorite(NO_FAVOURITE)).toBeNull();
  });

  /** The identity API's fetchSnsProxyResult: 200 + `Domain not found` is null; an `ok` non-string is refused. */
  const identityApi = async (on: Stack, name: string): Promise<string | null> => {
    const answer = await on.get(`/resolve/${name}`);
    const body = answer.body as { s: string; result: unknown };
    if (answer.status === 200 && body.s === "error" && body.result === "Domain not found") return null;
    if (answer.status !== 200 || body.s !== "ok" || typeof body.result !== "string") {
      throw new Error(`unusable answer ${answer.status}`);
    }
    return body.result;
  };

  it("identity API: `x.sol` is the SNS name before the cutoff, none past it", async () => {
    expect(await identityApi(stack, "plain.sol")).toBe(key("bob"));
    expect(await identityApi(pastCutoff, "plain.sol")).toBeNull();
    // The `.sns` name is the same account whatever the slot.
    expect(await identityApi(pastCutoff, "plain")).toBe(key("bob"));
    expect(await identityApi(pastCutoff, "plain.sns")).toBe(key("bob"));
  });

  it("identity API: an RPC outage is never taken for 'no owner' (502, which it refuses to read)", async () => {
    stack.localnet.setFault({ kind: "http-status", status: 503 });
    const answer = await stack.get("/resolve/v1-sol");
    expect([answer.status, answer.body]).toEqual([502, error("RPC unavailable")]);
    await expect(identityApi(stack, "v1-sol")).rejects.toThrow("unusable answer 502");
    stack.localnet.setFault({ kind: "jsonrpc-error", code: -32000, message: "node behind" });
    await expect(identityApi(stack, "stale-v2")).rejects.toThrow("unusable answer 502");
  });

  /** The Python name cache: `s === "ok"` and `result.reverse`, anything else no name; 429 stops it. */
  it("Python name cache: a name, or no name for a wallet without a favourite", async () => {
    const cache = async (wallet: string): Promise<string | null> => {
      const answer = await stack.get(`/favorite-domain/${wallet}`);
      if (answer.status === 429) throw new Error("stop");
      const body = answer.body as { s: string; result?: { reverse?: string } };
      return body.s === "ok" && body.result?.reverse ? body.result.reverse : null;
    };
    expect(await cache(key("carol"))).toBe("bonfida");
    expect(await cache(NO_FAVOURITE)).toBeNull();
  });

  it("sns-cli ≤ 2.1.0: /register's instruction data decodes with a strict URL-safe (padded) decoder, to v1's bytes", async () => {
    const path = `/register?buyer=${BUYER}&domain=example&space=1000&referrer=HemvJzwxvVpWBjPETpaseAH395WAxb2G73MeUfjVkK1u`;
    const legacy = (await getAsHost(both.gateway.url, path, "sdk-proxy.example")).body as {
      s: string;
      result: { programId: string; data: string }[];
    };
    const v1 = (await both.get(path)).body as typeof legacy;
    expect(legacy.s).toBe("ok");
    expect(legacy.result.map((ix) => ix.programId)).toEqual(v1.result.map((ix) => ix.programId));
    legacy.result.forEach((ix, i) => {
      expect(base64url.decode(ix.data)).toEqual(base64.decode(v1.result[i]!.data));
    });
    // The registration's own data, as PROTOCOL vectors give it in standard base64 (`…AAEGAA==`).
    expect(legacy.result.at(-1)!.data).toBe("FAcAAABleGFtcGxl6AMAAAEGAA==");
  });

  it("merchant backend: /register?serialize=true decodes with Buffer.from(result, 'base64') to v1's bytes", async () => {
    const path = `/register?buyer=${BUYER}&domain=example&space=1000&serialize=true`;
    const answer = await getAsHost(both.gateway.url, path, "sdk-proxy.example");
    const body = answer.body as { s: string; result: { type: string; data: number[] } };
    expect(answer.status === 200 && body.s === "ok").toBe(true);
    expect(body.result.type).toBe("Buffer");
    const bytes = Buffer.from(body.result as unknown as string, "base64");
    const v1 = (await both.get(path)).body as { result: string };
    expect(new Uint8Array(bytes)).toEqual(base64.decode(v1.result));
  });

  it("wallet analyzer: reads `result` only when it is a string (a record object and a list are not)", async () => {
    const analyzer = async (path: string) => {
      const body = (await stack.get(path)).body as { result?: unknown } | undefined;
      return typeof body?.result === "string" ? body.result : null;
    };
    expect(await analyzer("/record-v2/plain/twitter")).toBeNull();
    expect(await analyzer(`/domains/${key("bob")}`)).toBeNull();
    expect((await stack.get("/record-v2/plain/twitter")).body).toMatchObject(ok({ deserialized: "@bob" }));
  });

  it("mixoor mobile: `x.skr` is the subdomain x of skr, absent: 200 Domain not found", async () => {
    const answer = await stack.get("/resolve/seeker.skr");
    expect([answer.status, answer.body]).toEqual([200, error("Domain not found")]);
  });
});

describeOnNode("legacy routes", () => {
  it("/resolve: every failure about the name is 200 Domain not found (PDA owner, no NFT holder, bad record, 3 labels)", async () => {
    for (const name of ["vault", "burned-nft", "invalid-roa", "a.b.plain", "", "Plain"]) {
      const answer: Answer = await stack.get(`/resolve/${name}`);
      expect([answer.status, answer.body], name).toEqual(
        name === "" ? [404, undefined] : [200, error("Domain not found")],
      );
    }
  });

  it("/resolve: a refused rpc override is the route's answer, not a 400", async () => {
    const answer = await stack.get("/resolve/plain?rpc=http://127.0.0.1:1");
    expect([answer.status, answer.body]).toEqual([200, error("Domain not found")]);
  });

  it("/favorite-domain: a missing favourite and a bad key are 200 Invalid domain input", async () => {
    for (const wallet of [NO_FAVOURITE, "not-a-key"]) {
      expect((await stack.get(`/favorite-domain/${wallet}`)).body, wallet).toEqual(error("Invalid domain input"));
    }
    expect((await stack.get(`/favorite-domain/${key("bob")}`)).body).toEqual(
      ok({ domain: deriveDomainKey("plain"), reverse: "plain", stale: false }),
    );
  });

  it("/multiple-favorite-domains: aligned with the input; untrimmed, one bad key fails it all", async () => {
    const wallets = [key("alice"), NO_FAVOURITE, key("carol")];
    expect((await stack.get(`/multiple-favorite-domains/${wallets.join(",")}`)).body).toEqual(
      ok(["v1-sol", null, "bonfida"]),
    );
    expect((await stack.get(`/multiple-favorite-domains/${key("alice")},%20${key("carol")}`)).body).toEqual(
      error("Invalid domain input"),
    );
  });

  it("/domains: `{key, domain}`, registry-owned names then tokenized ones; errors 200 Invalid domain input", async () => {
    const answer = (await stack.get(`/domains/${key("carol")}`)).body as { s: string; result: object[] };
    expect(answer).toEqual(ok([{ key: deriveDomainKey("bonfida"), domain: "bonfida" }]));
    expect(Object.keys(answer.result[0]!)).toEqual(["key", "domain"]);
    expect((await stack.get("/domains/bonfida")).body).toEqual(error("Invalid domain input"));
  });

  it("/record-v2: stale by today's rule (a tokenized domain's record kept by its NFT holder is not stale)", async () => {
    const answer = (await stack.get("/record-v2/bonfida/url")).body as { result: { stale: boolean } };
    expect(answer.result.stale).toBe(false);
    expect((await stack.get("/record-v2/plain/BTC")).status).toBe(500);
    expect((await stack.get("/record-v2/plain/sol")).status).toBe(400);
    expect((await stack.get("/record-v2/plain/sol")).body).toEqual(error("Invalid input"));
  });

  it("/records-v2: request order, a missing record omitted rather than ending the list", async () => {
    const answer = (await stack.get("/records-v2/plain?records=email,BTC,twitter")).body as {
      result: { type: string }[];
    };
    expect(answer.result.map((item) => item.type)).toEqual(["email", "twitter"]);
    expect((await stack.get("/records-v2/plain")).body).toEqual(error("Invalid input"));
    expect((await stack.get("/records-v2/plain?records=email,")).status).toBe(400);
    expect((await stack.get("/records-v2/nobody-registered-this?records=email")).body).toEqual(error("Internal error"));
  });

  it("lists: at most 100 items, duplicates counted, as on v1 (/records-v2, /records, /multiple-favorite-domains)", async () => {
    const types = (n: number) => Array.from({ length: n }, () => "url").join(",");
    const hundred = await stack.get(`/records-v2/plain?records=${types(100)}`);
    expect([hundred.status, (hundred.body as { result: unknown[] }).result.length]).toEqual([200, 100]);
    for (const path of [`/records-v2/plain?records=${types(101)}`, `/records/plain?records=${types(101)}`]) {
      const answer = await stack.get(path);
      expect([answer.status, answer.body], path).toEqual([400, error("Invalid input")]);
    }
    const wallets = (n: number) => Array.from({ length: n }, () => key("bob")).join(",");
    const favourites = await stack.get(`/multiple-favorite-domains/${wallets(100)}`);
    expect([favourites.status, (favourites.body as { result: unknown[] }).result.length]).toEqual([200, 100]);
    expect((await stack.get(`/multiple-favorite-domains/${wallets(101)}`)).body).toEqual(error("Invalid domain input"));
  });

  it("/create-sub: the instructions of v1's /create-subdomain; serialize=true is Buffer JSON of v1's bytes", async () => {
    const owner = key("bob");
    const legacy = (
      await getAsHost(both.gateway.url, `/create-sub?owner=${owner}&subdomain=team.plain`, "sdk-proxy.example")
    ).body;
    const v1 = (await both.get(`/create-subdomain?owner=${owner}&subdomain=team.plain`)).body;
    expect(legacy).toEqual(v1);
    const serialized = (
      await getAsHost(
        both.gateway.url,
        `/create-sub?owner=${owner}&subdomain=team.plain.sol&serialize=true`,
        "sdk-proxy.example",
      )
    ).body as { result: { type: string; data: number[] } };
    const v1Serialized = (await both.get(`/create-subdomain?owner=${owner}&subdomain=team.plain&serialize=true`))
      .body as { result: string };
    expect(serialized.result.type).toBe("Buffer");
    expect(Uint8Array.from(serialized.result.data)).toEqual(base64.decode(v1Serialized.result));
    expect((await stack.get(`/create-sub?owner=${owner}&subdomain=plain`)).body).toEqual(error("Internal error"));
    // finalOwner: the creation, then the name program's transfer of the subdomain (tag 2) to it.
    const transferred = (await stack.get(`/create-sub?owner=${owner}&subdomain=team.plain&finalOwner=${key("carol")}`))
      .body as { result: { programId: string; keys: { pubkey: string }[]; data: string }[] };
    const transfer = transferred.result.at(-1)!;
    expect(transfer.keys.map((meta) => meta.pubkey)).toEqual([deriveDomainKey("team.plain"), owner]);
    expect(base64.decode(transfer.data)).toEqual(Uint8Array.from([2, ...addressToBytes(key("carol"))]));
    expect((await stack.get(`/create-sub?owner=bad&subdomain=team.plain`)).status).toBe(400);
  });

  it("/domain-key, /reverse-key (?sub=true), /types/record need no RPC", async () => {
    expect((await stack.get("/domain-key/plain.sol")).body).toEqual(ok(deriveDomainKey("plain")));
    expect((await stack.get("/domain-key/plain?record=1")).status).toBe(400);
    const asSub = (await stack.get("/reverse-key/dex.bonfida?sub=true")).body;
    const v1 = (await both.get("/reverse-key/dex.bonfida")).body;
    expect(asSub).toEqual(v1);
    expect((await stack.get("/reverse-key/dex.bonfida")).body).not.toEqual(v1);
    expect(((await stack.get("/types/record")).body as { result: object }).result).toMatchObject({ Email: "email" });
  });

  it("headers: CORS on every answer, Cache-Control no-store, plain-text 404 and GET /", async () => {
    const answer = await stack.get("/resolve/plain");
    expect(answer.headers.get("access-control-allow-origin")).toBe("*");
    expect(answer.headers.get("cache-control")).toBe("no-store");
    const root = await stack.get("/");
    expect([root.status, root.text]).toEqual([200, "Visit https://github.com/Bonfida/sns-sdk"]);
    const unknown = await stack.get("/primary-domain/" + key("bob"));
    expect([unknown.status, unknown.text]).toEqual([404, "404 Not Found"]);
    // A preflight lists the methods the legacy route takes (v1 has no /create-sub).
    const preflight = await stack.get("/create-sub", { method: "OPTIONS" });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-methods")).toBe("GET,HEAD,OPTIONS");
    const post = await stack.get("/resolve/plain", { method: "POST" });
    expect([post.status, post.text]).toEqual([404, "404 Not Found"]);
  });
});

describeOnNode("the routes v1 retired", () => {
  beforeAll(() => {
    // A verified handle: its registry (owned by the wallet) and the wallet's reverse registry naming it.
    const ledger = stack.localnet.ledger;
    const registry = deriveTwitterRegistryKey("bob_sns");
    ledger.setAccount(registry, {
      owner: NAME_PROGRAM_ID,
      data: encodeNameRegistry({ parent: TWITTER_ROOT_PARENT_REGISTRY, owner: key("bob") }, 0),
    });
    const handle = new TextEncoder().encode("bob_sns");
    const reverse = new Uint8Array(36 + handle.length);
    reverse.set(base58Bytes(registry), 0);
    new DataView(reverse.buffer).setUint32(32, handle.length, true);
    reverse.set(handle, 36);
    ledger.setAccount(deriveReverseTwitterRegistryKey(key("bob")), {
      owner: NAME_PROGRAM_ID,
      data: encodeNameRegistry(
        { parent: TWITTER_ROOT_PARENT_REGISTRY, owner: key("bob"), nameClass: TWITTER_VERIFICATION_AUTHORITY },
        reverse,
      ),
    });
  });

  it("/twitter/get-handle-by-key and /twitter/get-key-by-handle; a wallet without a handle is 200 Invalid input", async () => {
    expect((await stack.get(`/twitter/get-handle-by-key/${key("bob")}`)).body).toEqual(ok("bob_sns"));
    expect((await stack.get("/twitter/get-key-by-handle/bob_sns")).body).toEqual(ok(key("bob")));
    const none = await stack.get(`/twitter/get-handle-by-key/${key("carol")}`);
    expect([none.status, none.body]).toEqual([200, error("Invalid input")]);
    expect((await stack.get("/twitter/get-key-by-handle/nobody_here")).body).toEqual(error("Invalid input"));
    // The wallet analyzer reads `result` when it is a string, never `s`: as on the retired hosts, it takes the
    // error text of a wallet without a handle for a handle (the fixed answer is kept as it was).
    const analyzer = async (wallet: string) => {
      const body = (await stack.get(`/twitter/get-handle-by-key/${wallet}`)).body as { result?: unknown };
      return typeof body.result === "string" ? body.result : null;
    };
    expect(await analyzer(key("bob"))).toBe("bob_sns");
    expect(await analyzer(key("carol"))).toBe("Invalid input");
  });

  it("/record-key and /record (V1): the V1 SOL record's 96 bytes; a missing one is 500", async () => {
    const recordKey = deriveRecordV1Key(deriveDomainKey("v1-sol"), "SOL");
    expect((await stack.get("/record-key/v1-sol/SOL")).body).toEqual(ok(recordKey));
    const account = stack.localnet.ledger.getAccount(recordKey)!;
    const record = (await stack.get("/record/v1-sol.sol/SOL")).body as { result: string };
    expect(base64.decode(record.result)).toEqual(account.data.subarray(96, 192));
    expect((await stack.get("/record/plain/SOL")).body).toEqual(error("Internal error"));
    expect((await stack.get("/record/plain/sol")).status).toBe(400);
  });

  it("/records (V1): positional, `data` absent for a missing record", async () => {
    const answer = (await stack.get("/records/v1-sol?records=BTC,SOL")).body as {
      result: { record: string; data?: string }[];
    };
    expect(answer.result[0]).toEqual({ record: "BTC" });
    expect(answer.result[1]!.record).toBe("SOL");
    expect(typeof answer.result[1]!.data).toBe("string");
  });

  it("/reverse-lookup: a top-level name's reverse; a subdomain's key finds none (200 Invalid input)", async () => {
    expect((await stack.get(`/reverse-lookup/${deriveDomainKey("plain")}`)).body).toEqual(ok("plain"));
    expect((await stack.get(`/reverse-lookup/${deriveDomainKey("dex.bonfida")}`)).body).toEqual(error("Invalid input"));
  });

  it("/subdomains: sub labels of a parent; `x.sol` is x before the cutoff, refused past it", async () => {
    expect((await stack.get("/subdomains/bonfida")).body).toEqual(ok(["dex"]));
    expect((await stack.get("/subdomains/bonfida.sol")).body).toEqual(ok(["dex"]));
    expect((await pastCutoff.get("/subdomains/bonfida.sol")).body).toEqual(error("Invalid input"));
    expect((await pastCutoff.get("/subdomains/bonfida")).body).toEqual(ok(["dex"]));
  });

  it("/domain-data: the name account's data after its header; no account is 200 Domain not found", async () => {
    const account = stack.localnet.ledger.getAccount(deriveDomainKey("plain"))!;
    const answer = (await stack.get("/domain-data/plain")).body as { result: string };
    expect(base64.decode(answer.result)).toEqual(account.data.subarray(96));
    expect((await stack.get("/domain-data/nobody-registered-this")).body).toEqual(error("Domain not found"));
  });
});

describeOnNode("departures: `.sol` by today's rule, and RPC failures", () => {
  it("with SOL_SRS_RESOLUTION=on, `x.sol` resolves through its SRS record and `x` through the name service", async () => {
    const ledger = await loadFixtureFile(DEMO_FIXTURE_PATH);
    ledger.slot = SOL_TLD_CUTOFF_SLOT + 10;
    const srs = await startStack(ledger, { LEGACY_HOSTS: "*", SOL_SRS_RESOLUTION: "on" });
    try {
      expect((await srs.get("/resolve/v2-sol.sol")).body).toEqual(ok(key("frank")));
      expect((await srs.get("/resolve/v2-sol")).body).toEqual(ok(key("erin")));
      expect((await srs.get("/resolve/srs-only.sol")).body).toEqual(ok(key("erin")));
      expect((await srs.get("/resolve/srs-only")).body).toEqual(error("Domain not found"));
      // An expired SRS name is no owner: the route's answer.
      expect((await srs.get("/resolve/expired.sol")).body).toEqual(error("Domain not found"));
    } finally {
      await srs.close();
    }
  });

  it("with SOL_SRS_RESOLUTION=on, `x.sol` is refused on every route but /resolve, before the cutoff too", async () => {
    const srs = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH), {
      LEGACY_HOSTS: "*",
      SOL_SRS_RESOLUTION: "on",
    });
    try {
      expect((await srs.get("/resolve/v2-sol.sol")).body).toEqual(ok(key("frank")));
      // `v2-sol.sns`'s accounts belong to another owner than the SRS record names: the route's error answer.
      for (const [path, answer] of [
        ["/record-v2/v2-sol.sol/SOL", [500, error("Internal error")]],
        ["/records-v2/v2-sol.sol?records=SOL,url", [500, error("Internal error")]],
        ["/record/v2-sol.sol/SOL", [500, error("Internal error")]],
        ["/records/v2-sol.sol?records=SOL", [500, error("Internal error")]],
        ["/record-key/v2-sol.sol/SOL", [500, error("Internal error")]],
        ["/subdomains/v2-sol.sol", [200, error("Invalid input")]],
        ["/domain-data/v2-sol.sol", [200, error("Error fetching domain data")]],
        [`/create-sub?owner=${key("erin")}&subdomain=team.v2-sol.sol`, [500, error("Internal error")]],
      ] as const) {
        const got = await srs.get(path);
        expect([got.status, got.body], path).toEqual(answer);
      }
      // The `.sns` name reads its accounts as before.
      expect((await srs.get("/domain-data/v2-sol")).status).toBe(200);
      expect(((await srs.get("/domain-data/v2-sol")).body as { s: string }).s).toBe("ok");
    } finally {
      await srs.close();
    }
  });

  it("no RPC_URL, or a bug, keeps its own answer: never the route's 200 'no owner'", async () => {
    const noRpc = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH), { LEGACY_HOSTS: "*", RPC_URL: "" });
    try {
      for (const path of [
        "/resolve/bonfida",
        `/favorite-domain/${key("bob")}`,
        "/subdomains/bonfida",
        "/domain-data/plain",
        `/twitter/get-handle-by-key/${key("bob")}`,
      ]) {
        const answer = await noRpc.get(path);
        expect([answer.status, answer.body], path).toEqual([500, error("Internal error")]);
      }
      // A refused `rpc` is still the route's answer.
      expect((await noRpc.get("/resolve/bonfida?rpc=http://127.0.0.1:1")).body).toEqual(error("Domain not found"));
    } finally {
      await noRpc.close();
    }
  });

  it("an RPC that cannot answer is 502 on every route that reads the chain, never its fixed answer", async () => {
    stack.localnet.setFault({ kind: "http-status", status: 500 });
    try {
      for (const path of [
        `/favorite-domain/${key("bob")}`,
        `/multiple-favorite-domains/${key("bob")}`,
        `/domains/${key("bob")}`,
        "/record-v2/plain/email",
        "/records-v2/plain?records=email",
        "/subdomains/bonfida",
        `/reverse-lookup/${deriveDomainKey("plain")}`,
        "/domain-data/plain",
        `/create-sub?owner=${key("bob")}&subdomain=team.plain`,
        `/register?buyer=${key("bob")}&domain=example&space=1000&serialize=true`,
      ]) {
        const answer = await stack.get(path);
        expect([answer.status, answer.body], path).toEqual([502, error("RPC unavailable")]);
      }
    } finally {
      stack.localnet.setFault(null);
    }
  });
});
