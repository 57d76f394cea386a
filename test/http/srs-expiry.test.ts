import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { Ledger, type Localnet, identity, startLocalnet } from "../../src/localnet/index.js";
import { type RunningGateway, startGateway } from "../../src/platform/node/gateway.js";
import { request } from "../../testkit/stack.js";
import { putSrsRecord, putSrsTokenName } from "../../testkit/srs-ledger.js";

/*
 * SRS expiry against the host's clock, injected (Node: a platform clock), so
 * the boundary is exact and nothing sleeps: a record expires when its expiry
 * (unix seconds, 0 never) is at or before floor(now / 1000). The response
 * cache and the shared max-age never reach past a record's expiry.
 * Node only: workerd takes settings as bindings, not a clock.
 */

const T = 1_800_000_000;
const key = (name: string) => identity(name).address;
const ok = (result: string) => ({ s: "ok", result });
const EXPIRED = { s: "error", result: "Domain expired" };

let nowMs = T * 1000;
const clock = () => nowMs;
let localnet: Localnet;
let plain: RunningGateway;
let cached: RunningGateway;

beforeAll(async () => {
  const ledger = new Ledger();
  const alice = key("alice");
  for (const [name, expiry] of [
    ["minus-1", -1n],
    ["zero", 0n],
    ["now-minus-1", BigInt(T - 1)],
    ["now", BigInt(T)],
    ["now-plus-1", BigInt(T + 1)],
    ["in-5s", BigInt(T + 5)],
    ["in-5s-safe", BigInt(T + 5)],
  ] as const) {
    putSrsRecord(ledger, name, { owner: alice, expiry });
  }
  putSrsTokenName(ledger, "token-in-3s", { expiry: BigInt(T + 3), holders: [{ wallet: key("carol") }] });
  // The name service side of /safe-resolve for in-5s-safe agrees with its SRS record.
  const { buildDomainAccounts } = await import("../../src/localnet/index.js");
  for (const { address, account } of buildDomainAccounts({ name: "in-5s-safe", owner: "alice" }))
    ledger.setAccount(address, account);
  localnet = await startLocalnet({ ledger });
  const settings = {
    RPC_URL: localnet.url,
    PORT: "0",
    HOST: "127.0.0.1",
    LOG_LEVEL: "silent",
    SOL_SRS_RESOLUTION: "on",
  };
  [plain, cached] = await Promise.all([
    startGateway(loadConfig(settings), undefined, { clock }),
    startGateway(loadConfig({ ...settings, RESOLVE_CACHE_TTL_MS: "60000" }), undefined, { clock }),
  ]);
});
afterAll(async () => {
  await Promise.all([plain?.close(), cached?.close()]);
  await localnet?.close();
});
beforeEach(() => {
  localnet.resetStats();
});

describe("the expiry boundary, clock injected", () => {
  it.each([
    [T * 1000, "the second begins"],
    [T * 1000 + 999, "the second ends"],
  ])("at %i ms (%s): -1, now-1 and now are expired; 0 and now+1 resolve", async (at) => {
    nowMs = at;
    const answers = await Promise.all(
      ["minus-1", "zero", "now-minus-1", "now", "now-plus-1"].map(async (name) => {
        const answer = await request(plain.url, `/resolve/${name}.sol`);
        return [name, answer.status, answer.body];
      }),
    );
    expect(answers).toEqual([
      ["minus-1", 410, EXPIRED],
      ["zero", 200, ok(key("alice"))],
      ["now-minus-1", 410, EXPIRED],
      ["now", 410, EXPIRED],
      ["now-plus-1", 200, ok(key("alice"))],
    ]);
  });

  it("one second later now+1 has expired too", async () => {
    nowMs = (T + 1) * 1000;
    expect((await request(plain.url, "/resolve/now-plus-1.sol")).body).toEqual(EXPIRED);
  });
});

describe("the response cache never serves an SRS answer past the record's expiry", () => {
  it("a cached answer is served until the expiry, with max-age no longer than the time left, then 410", async () => {
    nowMs = T * 1000;
    const first = await request(cached.url, "/resolve/in-5s.sol");
    expect([first.status, first.body, first.headers.get("cache-control")]).toEqual([
      200,
      ok(key("alice")),
      "public, max-age=5",
    ]);
    expect(localnet.stats.httpRequests).toBe(1);

    nowMs = T * 1000 + 2500;
    const again = await request(cached.url, "/resolve/in-5s.sol");
    expect([again.status, again.headers.get("cache-control")]).toEqual([200, "public, max-age=2"]);
    expect(localnet.stats.httpRequests).toBe(1);

    nowMs = T * 1000 + 4999;
    expect((await request(cached.url, "/resolve/in-5s.sol")).headers.get("cache-control")).toBe("no-store");

    nowMs = (T + 5) * 1000;
    const expired = await request(cached.url, "/resolve/in-5s.sol");
    expect([expired.status, expired.body, expired.headers.get("cache-control")]).toEqual([410, EXPIRED, "no-store"]);
    expect(localnet.stats.httpRequests).toBe(2);
  });

  it("a token-owned name's answer is bound the same way", async () => {
    nowMs = T * 1000;
    expect((await request(cached.url, "/resolve/token-in-3s.sol")).headers.get("cache-control")).toBe(
      "public, max-age=3",
    );
    nowMs = (T + 3) * 1000;
    expect((await request(cached.url, "/resolve/token-in-3s.sol")).body).toEqual(EXPIRED);
  });

  it("/safe-resolve is bound by its SRS side", async () => {
    nowMs = T * 1000 + 1000;
    const first = await request(cached.url, "/safe-resolve/in-5s-safe.sol");
    expect([first.status, first.headers.get("cache-control")]).toEqual([200, "public, max-age=4"]);
    nowMs = (T + 5) * 1000;
    expect((await request(cached.url, "/safe-resolve/in-5s-safe.sol")).body).toEqual(EXPIRED);
  });

  it("a never-expiring record keeps the full cache lifetime", async () => {
    nowMs = T * 1000;
    expect((await request(cached.url, "/resolve/zero.sol")).headers.get("cache-control")).toBe("public, max-age=60");
    nowMs = T * 1000 + 30_000;
    await request(cached.url, "/resolve/zero.sol");
    expect(localnet.stats.httpRequests).toBe(1);
  });
});
