import { type Answer, request } from "./stack.js";

/** One client's requests, told apart from others by the header a proxy sets (CLIENT_IP_HEADER). */
export interface AttackClient {
  readonly header: string;
  readonly address: string;
}

export interface SharedReadAttack {
  /** The client that spends its allowance on a read others join. */
  readonly attacker: AttackClient;
  /** A request that costs the attacker `spendCost` calls, sent until it has at most `leave` left. */
  readonly spendPath: string;
  readonly spendCost: number;
  /** Calls the attacker keeps for the shared read: fewer than it needs, so it runs out midway. */
  readonly leave: number;
  /** The attacker's request starting the shared read. */
  readonly attackPath: string;
  /** What the bystanders ask: the same read, joined while the attacker's is under way. */
  readonly bystanderPath: string;
  readonly bystanders: readonly AttackClient[];
  /** How long after the attacker's request the bystanders' are sent (within the attacker's first round trip). */
  readonly joinAfterMs: number;
}

export interface SharedReadOutcome {
  /** The attacker's calls left when its shared read was sent. */
  readonly attackerLeft: number;
  readonly attacker: Answer;
  readonly bystanders: readonly Answer[];
}

const headersOf = (client: AttackClient): Record<string, string> => ({ [client.header]: client.address });

/** At most this many spending requests: the allowance must be small enough to spend in a test. */
const MAX_SPENDING = 1000;

/**
 * A client spends its RPC allowance until it has fewer calls left than a
 * read needs, then starts that read; other clients ask for the same read
 * while it is under way, so that the gateway shares it (coalesced
 * resolutions, coalesced account reads). What each of them is answered:
 * the bystanders must get what they would get alone, never the attacker's
 * 429 or 502.
 */
export async function sharedReadAttack(gateway: string, attack: SharedReadAttack): Promise<SharedReadOutcome> {
  const attackerHeaders = headersOf(attack.attacker);
  let left = Infinity;
  for (let i = 0; left > attack.leave; i++) {
    if (i >= MAX_SPENDING) throw new Error(`the attacker has ${left} calls left after ${MAX_SPENDING} requests`);
    const answer = await request(gateway, attack.spendPath, { headers: attackerHeaders });
    if (answer.status !== 200) throw new Error(`the attacker's spending request was answered ${answer.status}`);
    // RateLimit-Remaining: the calls left when the request was let in; it spent its own since.
    left = Number(answer.headers.get("ratelimit-remaining")) - attack.spendCost;
  }
  const attacking = request(gateway, attack.attackPath, { headers: attackerHeaders });
  await new Promise((resolve) => setTimeout(resolve, attack.joinAfterMs));
  const bystanders = await Promise.all(
    attack.bystanders.map((client) => request(gateway, attack.bystanderPath, { headers: headersOf(client) })),
  );
  return { attackerLeft: left, attacker: await attacking, bystanders };
}
