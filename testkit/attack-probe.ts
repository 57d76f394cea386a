import { request } from "./stack.js";

export interface AttackOutcome {
  readonly status: number;
  readonly body: unknown;
  /** From sending the attack to its answer. */
  readonly ms: number;
  /** Longest a `GET /health` sent every `probeEveryMs` meanwhile waited for its answer. */
  readonly healthWorstMs: number;
  readonly healthProbes: number;
}

/**
 * Sends one request to `gateway` and, until it is answered, a `GET /health`
 * every `probeEveryMs` (each on its own, never waiting for the one before):
 * what any other client of the gateway would see while it is answered.
 */
export async function attackWithProbes(
  gateway: string,
  path: string,
  probeEveryMs = 50,
  timeoutMs = 120_000,
): Promise<AttackOutcome> {
  const probes: Promise<number>[] = [];
  const probe = (): Promise<number> => {
    const sent = performance.now();
    return request(gateway, "/health").then(
      () => performance.now() - sent,
      () => Number.POSITIVE_INFINITY,
    );
  };
  const timer = setInterval(() => probes.push(probe()), probeEveryMs);
  const started = performance.now();
  try {
    const answer = await request(gateway, path, { signal: AbortSignal.timeout(timeoutMs) }).catch(() => ({
      status: 0,
      body: "no answer",
    }));
    const ms = performance.now() - started;
    clearInterval(timer);
    probes.push(probe());
    const waits = await Promise.all(probes);
    return {
      status: answer.status,
      body: answer.body,
      ms,
      healthWorstMs: Math.max(...waits),
      healthProbes: waits.length,
    };
  } finally {
    clearInterval(timer);
  }
}
