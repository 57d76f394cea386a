import { afterAll, beforeAll, expect, it } from "vitest";
import { DEMO_FIXTURE_PATH, identity, loadFixtureFile } from "../../src/localnet/index.js";
import { type Stack, startStack, describeOnNode } from "../../testkit/stack.js";
import { sharedReadAttack } from "../../testkit/shared-read-attack.js";

/**
 * Work several requests share (a resolution coalesced in service/resolver.ts, account reads and
 * largest-holder calls coalesced in rpc/) never fails a request because another one sharing it ran
 * out of its client's allowance. Node only: on Workers each request has its own endpoints and
 * resolutions, so nothing is shared.
 */
const BONFIDA_HOLDER = { s: "ok", result: "Hbn1ZdzThM2Hhd4V79imRRHFBsnjzskG6j9GZto8fSs7" };
const client = (address: string) => ({ header: "x-real-ip", address });
const BYSTANDERS = Array.from({ length: 10 }, (_, i) => client(`203.0.113.${10 + i}`));

describeOnNode("a shared read whose first asker runs out of its allowance midway", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH), {
      CLIENT_IP_HEADER: "X-Real-IP",
      RPC_RATE_LIMIT: "12",
    });
    // Every round trip takes long enough that the bystanders join the attacker's resolution under way.
    stack.localnet.setLatency(150);
  });
  afterAll(() => stack?.close());

  it("fails only the attacker (429): the bystanders that joined it get the name's answer", async () => {
    // A tokenized name asked for the first time takes several reads one after another (its accounts,
    // the mint's largest holders, the holder's token account): the attacker can pay for the first only.
    const outcome = await sharedReadAttack(stack.gateway.url, {
      attacker: client("198.51.100.66"),
      spendPath: "/resolve/plain.sns",
      spendCost: 1,
      leave: 1,
      attackPath: "/resolve/bonfida.sns",
      bystanderPath: "/resolve/bonfida.sns",
      bystanders: BYSTANDERS,
      joinAfterMs: 40,
    });
    const bystanders = outcome.bystanders.map((answer) => `${answer.status} ${JSON.stringify(answer.body)}`);
    console.info(
      `shared read: attacker (${outcome.attackerLeft} calls left) ${outcome.attacker.status}; bystanders ${bystanders.join(", ")}`,
    );
    expect(outcome.attacker.status).toBe(429);
    for (const answer of outcome.bystanders) expect([answer.status, answer.body]).toEqual([200, BONFIDA_HOLDER]);
  }, 60_000);
});

describeOnNode("an `rpc` naming RPC_URL's own URL", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(await loadFixtureFile(DEMO_FIXTURE_PATH), {
      CLIENT_IP_HEADER: "X-Real-IP",
      ALLOW_PRIVATE_RPC_OVERRIDE: "true",
      RPC_OVERRIDE_RATE_LIMIT: "2",
    });
    stack.localnet.setLatency(100);
  });
  afterAll(() => stack?.close());

  it("is counted as a request without `rpc` (RPC_RATE_LIMIT): clients that sent no `rpc` never get 429 for it", async () => {
    const rpc = `?rpc=${encodeURIComponent(stack.localnet.url)}`;
    const names = ["bonfida", "plain", "v2-sol", "v1-sol"];
    const attacker = client("198.51.100.77");
    const answers = await Promise.all(
      names.flatMap((name) => [
        ...Array.from({ length: 3 }, () =>
          stack.get(`/resolve/${name}.sns${rpc}`, { headers: { [attacker.header]: attacker.address } }),
        ),
        ...BYSTANDERS.slice(0, 3).map((by) =>
          stack.get(`/resolve/${name}.sns`, { headers: { [by.header]: by.address } }),
        ),
      ]),
    );
    const bystanders = answers.filter((_, i) => i % 6 >= 3);
    const attackers = answers.filter((_, i) => i % 6 < 3);
    console.info(
      `rpc = RPC_URL: attacker ${attackers.map((a) => a.status).join(" ")}; bystanders ${bystanders.map((a) => a.status).join(" ")}`,
    );
    for (const answer of bystanders) expect(answer.status).toBe(200);
    // Its calls are RPC_URL's, by RPC_RATE_LIMIT's policy, not the override's (2 a minute).
    for (const answer of attackers)
      expect([answer.status, answer.headers.get("ratelimit-limit")]).toEqual([200, "20000"]);
    expect(identity("bob").address).toBe(((await stack.get("/resolve/plain.sns")).body as { result: string }).result);
  }, 60_000);
});
