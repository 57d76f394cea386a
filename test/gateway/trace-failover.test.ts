import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Ledger, type Localnet, buildDomainAccounts, identity, startLocalnet } from "../../src/localnet/index.js";
import { type TestGateway, request, startTestGateway } from "../../testkit/stack.js";

// A traced answer over several RPC endpoints (RPC_URL="a,b") says where each post went: the first
// endpoint's fault, then the failover or hedge that answered, by host.

const alice = identity("alice").address;
let first: Localnet;
let second: Localnet;
const gateways: TestGateway[] = [];

interface Attempt {
  readonly endpoint: string;
  readonly outcome: string;
  readonly kind?: string;
}
interface TracedAnswer {
  readonly s: string;
  readonly result: string;
  readonly trace: {
    readonly request: { readonly endpoints: { readonly list: string; readonly hosts: readonly string[] } };
    readonly rpc: { readonly posts: readonly { readonly attempts: readonly Attempt[] }[] };
  };
}

const host = (localnet: Localnet) => new URL(localnet.url).host;

async function gatewayOver(env: Record<string, string>): Promise<TestGateway> {
  const gateway = await startTestGateway({ RPC_URL: `${first.url},${second.url}`, RESOLVE_CACHE_TTL_MS: "0", ...env });
  gateways.push(gateway);
  return gateway;
}

beforeAll(async () => {
  const ledger = new Ledger();
  for (const { address, account } of buildDomainAccounts({ name: "art", owner: alice })) {
    ledger.setAccount(address, account);
  }
  [first, second] = await Promise.all([startLocalnet({ ledger }), startLocalnet({ ledger })]);
});
afterAll(async () => {
  await Promise.all(gateways.map((gateway) => gateway.close()));
  await Promise.all([first.close(), second.close()]);
});

describe("?trace=1 over several endpoints", () => {
  it("a fault on the first endpoint, then the failover to the second: both attempts, by host", async () => {
    const gateway = await gatewayOver({ RPC_TIMEOUT_MS: "2000" });
    first.setFault({ kind: "http-status", status: 500, times: 1 });
    try {
      const answer = (await request(gateway.url, "/resolve/art.sns?trace=1")).body as TracedAnswer;
      expect(answer.result).toBe(alice);
      expect(answer.trace.request.endpoints).toEqual({ list: "configured", hosts: [host(first), host(second)] });
      expect(answer.trace.rpc.posts[0]!.attempts).toEqual([
        expect.objectContaining({ endpoint: host(first), outcome: "HTTP 500" }),
        expect.objectContaining({ endpoint: host(second), outcome: "ok", kind: "failover" }),
      ]);
    } finally {
      first.setFault(null);
    }
  });

  it("a slow first endpoint: the hedge to the second answers", async () => {
    const gateway = await gatewayOver({ RPC_HEDGE_MS: "50", RPC_TIMEOUT_MS: "5000" });
    first.setLatency(1500);
    try {
      const answer = (await request(gateway.url, "/resolve/art.sns?trace=1")).body as TracedAnswer;
      expect(answer.result).toBe(alice);
      expect(answer.trace.rpc.posts[0]!.attempts).toContainEqual(
        expect.objectContaining({ endpoint: host(second), outcome: "ok", kind: "hedge" }),
      );
    } finally {
      first.setLatency(0);
    }
  });
});
