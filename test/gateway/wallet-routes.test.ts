import { Connection, PublicKey } from "@solana/web3.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  DEMO_FIXTURE_PATH,
  type Ledger,
  buildDomainAccounts,
  encodeNameRegistry,
  encodePrimaryDomain,
  identity,
  loadFixtureFile,
} from "../../src/localnet/index.js";
import { NAME_OFFERS_ID, NAME_PROGRAM_ID, REVERSE_LOOKUP_CLASS, SNS_ROOT_DOMAIN } from "../../src/sns/constants.js";
import { deriveDomainKey, derivePrimaryDomainKey, deriveReverseKey } from "../../src/sns/derive.js";
import { sdk } from "../../testkit/sdk.js";
import { type Stack, startStack } from "../../testkit/stack.js";

const CACHEABLE = "public, max-age=10, stale-while-revalidate=180, stale-if-error=0";
const WALLETS = ["alice", "bob", "carol", "dave", "erin", "frank", "mallory"] as const;
const wallet = (name: string) => identity(name).address;

let ledger: Ledger;
let stack: Stack;
let connection: Connection;

beforeAll(async () => {
  ledger = await loadFixtureFile(DEMO_FIXTURE_PATH);
  // Edge cases beside the demo fixture: a primary whose name account is gone,
  // one whose reverse is missing, and subdomains with and without reverses.
  const ghost = identity("ghost").address;
  ledger.setAccount(derivePrimaryDomainKey(ghost), {
    owner: NAME_OFFERS_ID,
    data: encodePrimaryDomain(deriveDomainKey("never-registered")),
  });
  for (const spec of [
    { name: "quiet", owner: identity("hush").address, reverse: false as const },
    { name: "docs.plain", owner: wallet("bob") },
    { name: "hidden.plain", owner: wallet("bob"), reverse: false as const },
  ]) {
    for (const { address, account } of buildDomainAccounts(spec)) ledger.setAccount(address, account);
  }
  ledger.setAccount(derivePrimaryDomainKey(identity("hush").address), {
    owner: NAME_OFFERS_ID,
    data: encodePrimaryDomain(deriveDomainKey("quiet")),
  });
  stack = await startStack(ledger);
  connection = new Connection(stack.localnet.url, "processed");
});
afterAll(() => stack.close());
beforeEach(() => stack.localnet.setFault(null));

const pk = (address: string) => new PublicKey(address);
const ok = (result: unknown) => ({ s: "ok", result });
const error = (message: string) => ({ s: "error", result: message });

/** What upstream answers for an SDK outcome (as bench/baseline/app.ts answers), thrown errors by their type. */
async function upstream<T>(
  run: () => Promise<T>,
  notFound = "Resource not found",
): Promise<{ status: number; body: unknown }> {
  try {
    return { status: 200, body: ok(JSON.parse(JSON.stringify(await run()))) };
  } catch (thrown) {
    const type = (thrown as { type?: string }).type;
    if (type === "FavouriteDomainNotFound") return { status: 200, body: ok(null) };
    if (type === "AccountDoesNotExist" || type === "NoAccountData") return { status: 404, body: error(notFound) };
    throw thrown;
  }
}

describe("name → key routes (no RPC)", () => {
  it.each(["bonfida", "dex.bonfida", "BonFida ", "a", "x.y"])(
    "/domain-key/%s equals getDomainKeySync",
    async (name) => {
      const answer = await stack.get(`/domain-key/${encodeURIComponent(name)}`);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(ok(sdk.getDomainKeySync(name.trim().toLowerCase()).pubkey.toBase58()));
      expect(answer.headers.get("cache-control")).toBe(CACHEABLE);
    },
  );

  it.each(["bonfida", "dex.bonfida", "plain"])(
    "/reverse-key/%s equals getReverseKeySync(name, labels == 2)",
    async (name) => {
      const answer = await stack.get(`/reverse-key/${name}`);
      expect(answer.body).toEqual(ok(sdk.getReverseKeySync(name, name.includes(".")).toBase58()));
    },
  );

  it("the SDK's own vectors 1, 15 and 16", async () => {
    expect((await stack.get("/domain-key/bonfida")).body).toEqual(ok("Crf8hzfthWGbGbLTVCiqRqV5MVnbpHB1L9KQMd6gsinb"));
    expect((await stack.get("/reverse-key/bonfida")).body).toEqual(ok("DqgmWxe2PPrfy45Ja3UPyFGwcbRzkRuwXt3NyxjX8krg"));
    expect((await stack.get("/reverse-key/dex.bonfida")).body).toEqual(
      ok("6tAdEpjsrzHuRqJW3XMXEV7DFyCWW4giW6mW4bgvhcYV"),
    );
  });

  it.each(["a.b.c", ".x", "x.", "%20", "a..b"])(
    "/domain-key/%s and /reverse-key/%s are 400 Invalid input",
    async (name) => {
      for (const route of ["/domain-key/", "/reverse-key/"]) {
        const answer = await stack.get(route + name);
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual(error("Invalid input"));
        expect(answer.headers.get("cache-control")).toBe("no-store");
      }
    },
  );
});

describe("/reverse-lookup", () => {
  it.each(["bonfida", "dex.bonfida", "plain", "docs.plain", "redeemed"])("of %s equals the SDK", async (name) => {
    const key = deriveDomainKey(name);
    const expected = await upstream(async () => {
      const { registry } = await sdk.NameRegistryState.retrieve(connection, pk(key));
      const isSub = !registry.parentName.equals(sdk.ROOT_DOMAIN_ACCOUNT);
      return sdk.reverseLookup(connection, pk(key), isSub ? registry.parentName : undefined);
    }, "Account not found");
    const answer = await stack.get(`/reverse-lookup/${key}`);
    expect({ status: answer.status, body: answer.body }).toEqual(expected);
    expect(answer.body).toEqual(ok(name.split(".")[0]));
  });

  it("404 Account not found for a missing account or reverse", async () => {
    for (const key of [
      deriveDomainKey("never-registered"),
      deriveDomainKey("quiet"),
      deriveDomainKey("hidden.plain"),
    ]) {
      const answer = await stack.get(`/reverse-lookup/${key}`);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual(error("Account not found"));
    }
  });

  it.each(["notakey", "Crf8hzfthWGbGbLTVCiqRqV5MVnbpHB1L9KQMd6gsin0", " Crf8hzfthWGbGbLTVCiqRqV5MVnbpHB1L9KQMd6gsinb"])(
    "400 for the key %j (keys are not trimmed)",
    async (key) => {
      const answer = await stack.get(`/reverse-lookup/${encodeURIComponent(key)}`);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual(error("Invalid input"));
    },
  );

  it("takes one round trip for a top-level name and two for a subdomain", async () => {
    stack.localnet.resetStats();
    await stack.get(`/reverse-lookup/${deriveDomainKey("plain")}`);
    expect(stack.localnet.stats.httpRequests).toBe(1);
    stack.localnet.resetStats();
    await stack.get(`/reverse-lookup/${deriveDomainKey("dex.bonfida")}`);
    expect(stack.localnet.stats.httpRequests).toBe(2);
  });
});

describe("/primary-domain and /favorite-domain", () => {
  it.each([...WALLETS, "ghost", "hush"])("of %s equals getFavoriteDomain", async (name) => {
    const owner = identity(name).address;
    const expected = await upstream(() => sdk.getFavoriteDomain(connection, pk(owner)));
    for (const route of ["/primary-domain/", "/favorite-domain/"]) {
      const answer = await stack.get(route + owner);
      expect({ status: answer.status, body: answer.body }).toEqual(expected);
    }
  });

  it("covers a fresh, a stale, a tokenized and a subdomain primary, and none", async () => {
    const of = async (name: string) => (await stack.get(`/primary-domain/${wallet(name)}`)).body;
    expect(await of("carol")).toEqual(ok({ domain: deriveDomainKey("bonfida"), reverse: "bonfida", stale: false }));
    expect(await of("bob")).toEqual(ok({ domain: deriveDomainKey("plain"), reverse: "plain", stale: false }));
    expect(await of("dave")).toEqual(ok({ domain: deriveDomainKey("plain"), reverse: "plain", stale: true }));
    expect(await of("erin")).toEqual(
      ok({ domain: deriveDomainKey("dex.bonfida"), reverse: "dex.bonfida", stale: true }),
    );
    expect(await of("mallory")).toEqual(ok(null));
  });

  it("takes at most three round trips", async () => {
    for (const name of ["carol", "erin", "bob"]) {
      stack.localnet.resetStats();
      await stack.get(`/primary-domain/${wallet(name)}`);
      expect(stack.localnet.stats.httpRequests).toBeLessThanOrEqual(3);
    }
  });
});

describe("/multiple-primary-domains", () => {
  const owners = [...WALLETS, "ghost", "hush", "alice"].map((name) => identity(name).address);

  it("equals getMultipleFavoriteDomains, aligned with the input", async () => {
    const expected = (await sdk.getMultipleFavoriteDomains(connection, owners.map(pk))).map((name) => name ?? null);
    for (const route of ["/multiple-primary-domains/", "/multiple-favorite-domains/"]) {
      const answer = await stack.get(route + owners.join(","));
      expect(answer.body).toEqual(ok(expected));
    }
    expect(expected.filter((name) => name !== null).length).toBeGreaterThanOrEqual(3);
  });

  it("accepts spaces around keys and 100 keys; refuses 101, an empty item or a bad key", async () => {
    const hundred = Array.from({ length: 100 }, (_, i) => owners[i % owners.length]);
    expect((await stack.get(`/multiple-primary-domains/${hundred.join(",")}`)).status).toBe(200);
    expect(
      (await stack.get(`/multiple-primary-domains/${encodeURIComponent(` ${owners[0]} , ${owners[1]}`)}`)).status,
    ).toBe(200);
    for (const bad of [[...hundred, owners[0]].join(","), `${owners[0]},`, `${owners[0]},nope`]) {
      const answer = await stack.get(`/multiple-primary-domains/${bad}`);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual(error("Invalid input"));
    }
  });

  it("takes three round trips for 100 wallets", async () => {
    const hundred = Array.from({ length: 100 }, (_, i) => identity(`w${i}`).address);
    stack.localnet.resetStats();
    await stack.get(`/multiple-primary-domains/${[...owners, ...hundred].slice(0, 100).join(",")}`);
    expect(stack.localnet.stats.httpRequests).toBeLessThanOrEqual(3);
  });

  it("gives null for a wallet whose primary account is broken, and still answers the others", async () => {
    const broken = identity("broken-primary").address;
    ledger.setAccount(derivePrimaryDomainKey(broken), { owner: NAME_OFFERS_ID, data: new Uint8Array(7) });
    const answer = await stack.get(`/multiple-primary-domains/${broken},${wallet("bob")}`);
    expect(answer.body).toEqual(ok([null, "plain"]));
    const single = await stack.get(`/primary-domain/${broken}`);
    expect(single.status).toBe(422);
    expect(single.body).toEqual(error("Record is malformed"));
  });
});

describe("/domains", () => {
  it.each(WALLETS)(
    "of %s equals getAllDomains + reverses, then getTokenizedDomains, each sorted by key",
    async (name) => {
      const owner = pk(wallet(name));
      const keys = await sdk.getAllDomains(connection, owner);
      const reverses = await sdk.reverseLookupBatch(connection, keys);
      const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
      const direct = keys
        .map((key, i) => ({ domain: reverses[i], key: key.toBase58() }))
        .filter((entry) => !!entry.domain)
        .sort(byKey);
      const tokenized = (await sdk.getTokenizedDomains(connection, owner))
        .map((entry) => ({ domain: entry.reverse, key: entry.key.toBase58() }))
        .sort(byKey);
      const answer = await stack.get(`/domains/${owner.toBase58()}`);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(ok([...direct, ...tokenized]));
      expect(answer.headers.get("cache-control")).toBe(CACHEABLE);
    },
  );

  it("lists alice's registry-owned names and carol's tokenized bonfida", async () => {
    const domainsOf = async (name: string) =>
      ((await stack.get(`/domains/${wallet(name)}`)).body as { result: { domain: string }[] }).result.map(
        (e) => e.domain,
      );
    expect(await domainsOf("alice")).toEqual(expect.arrayContaining(["bonfida", "v2-sol", "v1-sol", "stale-v2"]));
    expect(await domainsOf("carol")).toEqual(["bonfida"]);
    expect(await domainsOf("mallory")).toEqual([]);
  });
});

describe("/subdomains", () => {
  it.each(["bonfida", "plain", "v2-sol", "nothing-here"])("of %s equals findSubdomains", async (parent) => {
    const expected = await sdk.findSubdomains(connection, pk(deriveDomainKey(parent)));
    const answer = await stack.get(`/subdomains/${parent}`);
    expect(answer.body).toEqual(ok(expected));
  });

  it("lists only subdomains with a reverse, in one round trip", async () => {
    stack.localnet.resetStats();
    const answer = await stack.get("/subdomains/plain");
    expect(answer.body).toEqual(ok(["docs"]));
    expect(stack.localnet.stats.httpRequests).toBe(1);
  });

  it("refuses a two-label parent", async () => {
    const answer = await stack.get("/subdomains/dex.bonfida");
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(error("Invalid input"));
  });
});

describe("faults and policy on every RPC-backed route", () => {
  const paths = () => [
    `/reverse-lookup/${deriveDomainKey("plain")}`,
    `/domains/${wallet("alice")}`,
    `/primary-domain/${wallet("carol")}`,
    `/multiple-primary-domains/${wallet("carol")},${wallet("bob")}`,
    "/subdomains/plain",
  ];

  it.each([
    ["JSON-RPC error", { kind: "jsonrpc-error", code: -32005, message: "node is behind" }],
    ["HTTP 503", { kind: "http-status", status: 503 }],
    ["garbage", { kind: "garbage" }],
    ["malformed result", { kind: "malformed-result" }],
  ] as const)("%s → 502 RPC unavailable, never cached", async (_, fault) => {
    for (const path of paths()) {
      stack.localnet.setFault(fault);
      const answer = await stack.get(path);
      expect(answer.status, path).toBe(502);
      expect(answer.body).toEqual(error("RPC unavailable"));
      expect(answer.headers.get("cache-control")).toBe("no-store");
      expect(answer.headers.get("access-control-allow-origin")).toBe("*");
    }
  });

  it("validates the path before the rpc parameter, then refuses a private rpc", async () => {
    expect((await stack.get("/reverse-lookup/nope?rpc=http://127.0.0.1:1")).body).toEqual(error("Invalid input"));
    for (const path of paths()) {
      const answer = await stack.get(`${path}?rpc=${encodeURIComponent("https://127.0.0.1/")}`);
      expect(answer.status, path).toBe(400);
      expect(answer.body).toEqual(error("Invalid input"));
    }
  });

  it("405 for other methods on the new routes", async () => {
    for (const path of paths()) {
      const answer = await stack.get(path, { method: "POST" });
      expect(answer.status).toBe(405);
    }
  });

  it("422 Record is malformed for an undecodable reverse", async () => {
    const key = deriveDomainKey("short-reverse");
    ledger.setAccount(key, {
      owner: NAME_PROGRAM_ID,
      data: encodeNameRegistry({ parent: SNS_ROOT_DOMAIN, owner: wallet("mallory") }),
    });
    ledger.setAccount(deriveReverseKey(key), {
      owner: NAME_PROGRAM_ID,
      data: encodeNameRegistry({ owner: REVERSE_LOOKUP_CLASS, nameClass: REVERSE_LOOKUP_CLASS }, 2),
    });
    const answer = await stack.get(`/reverse-lookup/${key}`);
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual(error("Record is malformed"));
    const domains = await stack.get(`/domains/${wallet("mallory")}`);
    expect(domains.status).toBe(422);
    ledger.deleteAccount(key);
    ledger.deleteAccount(deriveReverseKey(key));
  });
});
