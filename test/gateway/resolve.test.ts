import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  DEMO_FIXTURE_PATH,
  LOCALNET_PDA_PROGRAM,
  Ledger,
  identity,
  loadFixtureFile,
  pdaAddress,
  startLocalnet,
} from "../../src/localnet/index.js";
import { SOL_TLD_CUTOFF_SLOT } from "../../src/sns/constants.js";
import { type Stack, startStack } from "../../testkit/stack.js";

const key = (name: string) => identity(name).address;
const ok = (result: string) => ({ s: "ok", result });
const error = (result: string) => ({ s: "error", result });

let stack: Stack;

beforeAll(async () => {
  stack = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH));
});
afterAll(() => stack.close());
beforeEach(() => {
  stack.localnet.setFault(null);
  stack.localnet.resetStats();
});

describe("GET /resolve/:domain — .sns precedence", () => {
  it.each([
    ["bonfida", "carol", "active tokenized domain → NFT holder, ahead of its V2 and V1 records"],
    ["redeemed", "frank", "inactive tokenization is ignored → registry owner"],
    ["v2-sol", "erin", "valid V2 SOL record"],
    ["pay.v2-sol", "erin", "V2 SOL record of a subdomain"],
    ["stale-v2", "dave", "stale V2 record falls through to a valid V1 record"],
    ["v1-sol", "dave", "valid V1 SOL record"],
    ["bad-v1-sig", "alice", "V1 record signed by someone else falls through to the owner"],
    ["plain", "bob", "registry owner"],
    ["dex.bonfida", "bob", "subdomain registry owner"],
  ])("%s → %s (%s)", async (name, target) => {
    const answer = await stack.get(`/resolve/${name}.sns`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(ok(key(target)));
  });

  it.each([
    ["invalid-roa", 422, "Record is malformed"],
    ["wrong-validation", 422, "Record is malformed"],
    ["malformed-sol", 422, "Record is malformed"],
    ["nobody-registered-this", 404, "Domain not found"],
    ["vault", 500, "Internal error"],
    ["burned-nft", 500, "Internal error"],
    ["unminted", 500, "Internal error"],
  ])("%s → %i %s", async (name, status, message) => {
    const answer = await stack.get(`/resolve/${name}.sns`);
    expect(answer.status).toBe(status);
    expect(answer.body).toEqual(error(message));
  });

  it("reads the four resolution accounts in one getMultipleAccounts and never asks for the slot", async () => {
    await stack.get("/resolve/v2-sol.sns");
    expect(stack.localnet.stats.methods).toEqual({ getMultipleAccounts: 1 });
    expect(stack.localnet.stats.httpRequests).toBe(1);
  });

  it("asks for the NFT holder only when the NFT record is active", async () => {
    await stack.get("/resolve/redeemed.sns");
    expect(stack.localnet.stats.methods.getTokenLargestAccounts).toBeUndefined();
    await stack.get("/resolve/bonfida.sns");
    expect(stack.localnet.stats.methods.getTokenLargestAccounts).toBe(1);
  });
});

describe("normalization and validation, in the spec's order", () => {
  it.each([
    ["%20%20BonFida.SNS%09", "carol"],
    ["PLAIN.sns", "bob"],
    ["Dex.Bonfida.Sns", "bob"],
    ["plain.SOL", "bob"],
  ])("%s is trimmed and lowercased", async (raw, target) => {
    const answer = await stack.get(`/resolve/${raw}`);
    expect(answer.body).toEqual(ok(key(target)));
  });

  it.each([
    ["bonfida", "Unsupported TLD"],
    ["bonfida.com", "Unsupported TLD"],
    ["bonfida.sns.", "Unsupported TLD"],
    ["%20", "Unsupported TLD"],
    ["a..b.com", "Unsupported TLD"],
    [".sns", "Invalid input"],
    ["..sns", "Invalid input"],
    ["a..sns", "Invalid input"],
    ["a.b.c.sns", "Invalid input"],
    ["x.y.z.sol", "Invalid input"],
  ])("%s → 400 %s, with no RPC call", async (raw, message) => {
    const answer = await stack.get(`/resolve/${raw}`);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(error(message));
    expect(stack.localnet.stats.httpRequests).toBe(0);
  });

  it("handles hostile input without crashing: long, unicode, encoded separators, bad escapes", async () => {
    const cases: [string, number][] = [
      [`${"a".repeat(8000)}.sns`, 404],
      ["%F0%9F%98%80.sns", 404],
      ["%C3%BCber.sol", 404],
      ["a%2Fb.sns", 404],
      ["%E0%A4%A.sns", 404],
      ["%00.sns", 404],
    ];
    for (const [raw, status] of cases) {
      const answer = await stack.get(`/resolve/${raw}`);
      expect({ raw: raw.slice(0, 20), status: answer.status }).toEqual({ raw: raw.slice(0, 20), status });
      expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
    }
  });

  it("validates the domain before the rpc override", async () => {
    const answer = await stack.get("/resolve/bonfida?rpc=https://127.0.0.1");
    expect(answer.body).toEqual(error("Unsupported TLD"));
  });
});

describe("/safe-resolve/:domain", () => {
  it("matches /resolve while SRS-backed .sol resolution is disabled", async () => {
    for (const name of ["bonfida.sns", "stale-v2.sol", "plain.sns", "invalid-roa.sns", "x.y.z.sns", "nope.sns"]) {
      const [plain, safe] = await Promise.all([stack.get(`/resolve/${name}`), stack.get(`/safe-resolve/${name}`)]);
      expect({ name, status: safe.status, body: safe.body }).toEqual({ name, status: plain.status, body: plain.body });
    }
  });
});

describe("deprecated record routes", () => {
  it.each([
    ["/record/bonfida/SOL", "This endpoint is deprecated. Use /record-v2/:domain/:record instead."],
    [
      "/record/anything%20at%20all/not-a-record?rpc=file:///etc/passwd",
      "This endpoint is deprecated. Use /record-v2/:domain/:record instead.",
    ],
    ["/record-key/bonfida/SOL", "This endpoint is deprecated. Use /record-key-v2/:domain/:record instead."],
    ["/record-key/x..y/z", "This endpoint is deprecated. Use /record-key-v2/:domain/:record instead."],
  ])("%s → 400 without touching the RPC", async (path, message) => {
    const answer = await stack.get(path);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(error(message));
    expect(stack.localnet.stats.httpRequests).toBe(0);
  });
});

describe("HTTP surface", () => {
  it("answers JSON in the envelope everywhere, with CORS and no-store on resolve", async () => {
    const answer = await stack.get("/resolve/plain.sns", { headers: { origin: "https://wallet.example" } });
    expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
    expect(answer.headers.get("access-control-allow-origin")).toBe("*");
    expect(answer.headers.get("cache-control")).toBe("no-store");
  });

  it("GET /health", async () => {
    const answer = await stack.get("/health");
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(ok("ok"));
  });

  it.each(["/nope", "/resolve/", "/records/bonfida"])("unknown route %s → 404 JSON", async (path) => {
    const answer = await stack.get(path);
    expect(answer.status).toBe(404);
    expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
    expect(answer.body).toEqual(error("Not found"));
  });

  it("GET on the bulk route /resolve → 405 JSON, allowing POST", async () => {
    const answer = await stack.get("/resolve");
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toBe("POST, OPTIONS");
    expect(answer.body).toEqual(error("Method not allowed"));
  });

  it.each(["POST", "PUT", "DELETE", "PATCH"])("%s on a GET route → 405 JSON", async (method) => {
    const answer = await stack.get("/resolve/plain.sns", { method });
    expect(answer.status).toBe(405);
    expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
    expect(answer.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect(answer.body).toEqual(error("Method not allowed"));
  });

  it("answers CORS preflights", async () => {
    const answer = await stack.get("/resolve/plain.sns", {
      method: "OPTIONS",
      headers: { origin: "https://wallet.example", "access-control-request-method": "GET" },
    });
    expect(answer.status).toBe(204);
    expect(answer.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("HEAD behaves as GET without a body", async () => {
    const answer = await stack.get("/resolve/plain.sns", { method: "HEAD" });
    expect(answer.status).toBe(200);
    expect(answer.text).toBe("");
  });
});

describe("RPC faults → 502 RPC unavailable", () => {
  it.each([
    ["JSON-RPC error object", { kind: "jsonrpc-error", code: -32005, message: "Node is behind" }],
    ["HTTP 503", { kind: "http-status", status: 503 }],
    ["HTTP 429", { kind: "http-status", status: 429 }],
    ["redirect (not followed)", { kind: "http-status", status: 302 }],
    ["garbage body", { kind: "garbage" }],
    ["valid envelope, wrong result shape", { kind: "malformed-result" }],
  ] as const)("%s", async (_, fault) => {
    stack.localnet.setFault(fault);
    const answer = await stack.get("/resolve/plain.sns");
    expect(answer.status).toBe(502);
    expect(answer.body).toEqual(error("RPC unavailable"));
  });

  it("a JSON-RPC error on the NFT holder lookup (other than -32602)", async () => {
    stack.localnet.setFault({
      kind: "jsonrpc-error",
      code: -32603,
      message: "Internal error",
      method: "getTokenLargestAccounts",
    });
    const answer = await stack.get("/resolve/bonfida.sns");
    expect(answer.status).toBe(502);
  });

  it("-32602 on the NFT holder lookup means no such mint, not an RPC failure", async () => {
    stack.localnet.setFault({
      kind: "jsonrpc-error",
      code: -32602,
      message: "Invalid param: could not find account",
      method: "getTokenLargestAccounts",
    });
    const answer = await stack.get("/resolve/bonfida.sns");
    expect(answer).toMatchObject({ status: 500, body: error("Internal error") });
  });

  it("connection refused", async () => {
    const closed = await startLocalnet({ ledger: new Ledger() });
    await closed.close();
    const refused = await startStack(new Ledger(), { RPC_URL: closed.url });
    try {
      const answer = await refused.get("/resolve/plain.sns");
      expect(answer).toMatchObject({ status: 502, body: error("RPC unavailable") });
    } finally {
      await refused.close();
    }
  });

  it("no answer within RPC_TIMEOUT_MS", async () => {
    const slow = await startStack(new Ledger(), { RPC_TIMEOUT_MS: "300" });
    try {
      slow.localnet.setFault({ kind: "hang" });
      const started = performance.now();
      const answer = await slow.get("/resolve/plain.sns");
      expect(answer).toMatchObject({ status: 502, body: error("RPC unavailable") });
      expect(performance.now() - started).toBeLessThan(3000);
    } finally {
      await slow.close();
    }
  });

  it("never leaks internals into result", async () => {
    stack.localnet.setFault({ kind: "jsonrpc-error", code: -32000, message: "secret internal detail" });
    const answer = await stack.get("/resolve/plain.sns");
    expect(answer.text).not.toContain("secret");
  });
});

describe("no RPC configured", () => {
  it("→ 500 Internal error, after input validation", async () => {
    const bare = await startStack(new Ledger(), { RPC_URL: "" });
    try {
      expect(await bare.get("/resolve/plain.sns")).toMatchObject({ status: 500, body: error("Internal error") });
      expect(await bare.get("/resolve/plain")).toMatchObject({ status: 400, body: error("Unsupported TLD") });
      expect(await bare.get("/resolve/plain.sns?rpc=")).toMatchObject({ status: 500, body: error("Internal error") });
    } finally {
      await bare.close();
    }
  });
});

describe(".sol cutoff", () => {
  async function stackAtSlot(slot: number) {
    const ledger = await loadFixtureFile(DEMO_FIXTURE_PATH);
    ledger.slot = slot;
    return startStack(ledger);
  }

  it("resolves .sol one slot before the cutoff", async () => {
    const before = await stackAtSlot(SOL_TLD_CUTOFF_SLOT - 1);
    try {
      expect((await before.get("/resolve/plain.sol")).body).toEqual(ok(key("bob")));
      expect(before.localnet.stats.methods.getSlot).toBe(1);
    } finally {
      await before.close();
    }
  });

  it("pauses .sol at the cutoff, remembers it per endpoint, and leaves .sns alone", async () => {
    const after = await stackAtSlot(SOL_TLD_CUTOFF_SLOT);
    try {
      expect(await after.get("/resolve/plain.sol")).toMatchObject({ status: 400, body: error("Unsupported TLD") });
      expect(await after.get("/resolve/bonfida.sol")).toMatchObject({ status: 400, body: error("Unsupported TLD") });
      // Two slot reads: a slot past the cutoff is kept for good only once a second answer agrees.
      expect(after.localnet.stats.methods.getSlot).toBe(2);
      expect((await after.get("/resolve/plain.sns")).body).toEqual(ok(key("bob")));
      expect(after.localnet.stats.methods.getSlot).toBe(2);
      // Even if the node later reports an older slot, the endpoint stays paused.
      after.localnet.ledger.slot = 1;
      expect((await after.get("/resolve/plain.sol")).status).toBe(400);
      expect(after.localnet.stats.methods.getSlot).toBe(2);
    } finally {
      await after.close();
    }
  });

  it("reuses a far-from-cutoff slot instead of asking on every request", async () => {
    await stack.get("/resolve/plain.sol");
    await stack.get("/resolve/v1-sol.sol");
    await stack.get("/resolve/bonfida.sol");
    expect(stack.localnet.stats.methods.getSlot ?? 0).toBeLessThanOrEqual(1);
  });

  it("does not remember a failed slot call", async () => {
    const fresh = await stackAtSlot(SOL_TLD_CUTOFF_SLOT - 1);
    try {
      fresh.localnet.setFault({ kind: "http-status", status: 503, method: "getSlot", times: 1 });
      expect(await fresh.get("/resolve/plain.sol")).toMatchObject({ status: 502, body: error("RPC unavailable") });
      expect((await fresh.get("/resolve/plain.sol")).body).toEqual(ok(key("bob")));
    } finally {
      await fresh.close();
    }
  });

  it("a slot one short of the cutoff is re-read each time (no safe reuse window)", async () => {
    const edge = await stackAtSlot(SOL_TLD_CUTOFF_SLOT - 1);
    try {
      expect((await edge.get("/resolve/plain.sol")).status).toBe(200);
      edge.localnet.ledger.slot = SOL_TLD_CUTOFF_SLOT;
      expect(await edge.get("/resolve/plain.sol")).toMatchObject({ status: 400, body: error("Unsupported TLD") });
    } finally {
      await edge.close();
    }
  });
});

describe("rpc override", () => {
  it.each([
    ["loopback", "https://127.0.0.1:8899"],
    ["localhost", "https://localhost:8899"],
    ["decimal loopback", "https://2130706433:8899"],
    ["IPv6 loopback", "https://[::1]:8899"],
    ["private", "https://10.0.0.8"],
    ["metadata IP", "https://169.254.169.254/latest/meta-data/"],
    ["metadata name", "https://metadata.google.internal/"],
    ["file scheme", "file:///etc/passwd"],
    ["not a URL", "not-a-url"],
    ["plain http", "http://rpc.example.com"],
  ])("refuses %s with 400 Invalid input", async (_, rpc) => {
    const answer = await stack.get(`/resolve/plain.sns?rpc=${encodeURIComponent(rpc)}`);
    expect(answer).toMatchObject({ status: 400, body: error("Invalid input") });
  });

  it("sends nothing to a refused endpoint", async () => {
    const target = await startLocalnet({ ledger: new Ledger() });
    try {
      for (const rpc of [target.url, target.url.replace("http:", "https:")]) {
        const answer = await stack.get(`/resolve/plain.sns?rpc=${encodeURIComponent(rpc)}`);
        expect(answer.status).toBe(400);
      }
      expect(target.stats.httpRequests).toBe(0);
    } finally {
      await target.close();
    }
  });

  it("an empty rpc= means not given", async () => {
    expect((await stack.get("/resolve/plain.sns?rpc=")).body).toEqual(ok(key("bob")));
    expect((await stack.get("/resolve/plain.sns?rpc=%20%20")).body).toEqual(ok(key("bob")));
  });

  it("with ALLOW_PRIVATE_RPC_OVERRIDE=true, reads the other chain for that request only", async () => {
    const other = new Ledger();
    const elsewhere = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH), {
      ALLOW_PRIVATE_RPC_OVERRIDE: "true",
    });
    const secondChain = await startLocalnet({ ledger: other });
    try {
      // A different state on the second chain: `plain` does not exist there.
      const viaOverride = await elsewhere.get(`/resolve/plain.sns?rpc=${encodeURIComponent(secondChain.url)}`);
      expect(viaOverride).toMatchObject({ status: 404, body: error("Domain not found") });
      expect(secondChain.stats.httpRequests).toBe(1);
      const viaDefault = await elsewhere.get("/resolve/plain.sns");
      expect(viaDefault.body).toEqual(ok(key("bob")));
      expect(secondChain.stats.httpRequests).toBe(1);
    } finally {
      await secondChain.close();
      await elsewhere.close();
    }
  });
});

describe("PDA registry owners", () => {
  it("are not returned by default", async () => {
    expect(await stack.get("/resolve/vault.sns")).toMatchObject({ status: 500, body: error("Internal error") });
  });

  it("ALLOW_PDA_OWNERS=any returns them", async () => {
    const any = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH), { ALLOW_PDA_OWNERS: "any" });
    try {
      expect((await any.get("/resolve/vault.sns")).body).toEqual(ok(pdaAddress("treasury")));
    } finally {
      await any.close();
    }
  });

  it("a program allow-list returns PDAs whose account that program owns", async () => {
    const allowed = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH), {
      ALLOW_PDA_OWNERS: `TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA, ${LOCALNET_PDA_PROGRAM}`,
    });
    const other = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH), {
      ALLOW_PDA_OWNERS: "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",
    });
    try {
      expect((await allowed.get("/resolve/vault.sns")).body).toEqual(ok(pdaAddress("treasury")));
      expect(await other.get("/resolve/vault.sns")).toMatchObject({ status: 500, body: error("Internal error") });
    } finally {
      await Promise.all([allowed.close(), other.close()]);
    }
  });
});
