import { BrokenCircuitError } from "cockatiel";
import type { AnswerLimits } from "../answer-shape.js";
import { RpcFailure } from "../errors.js";
import type { RpcTransport } from "../transport/contract.js";
import { type PostPayers, attemptTimeoutMs } from "../request-budget.js";
import type { Telemetry } from "../../telemetry.js";
import { AttemptCancelled, type EndpointHealth } from "./endpoint-health.js";
import { countsAgainstEndpoint, failoverKindOf } from "./fault-kind.js";
import { nodeConditionIn } from "./node-condition.js";
import { NodeConditionFault } from "./node-condition-fault.js";

/** One endpoint of `RPC_URL`: how to reach it, and what is known of its health (shared across requests). */
export interface FailoverMember {
  readonly transport: RpcTransport;
  readonly health: EndpointHealth;
}

export interface FailoverOptions {
  /** Deadline of one read, over every endpoint it tries (RPC_TIMEOUT_MS). */
  readonly timeoutMs: number;
  /** A read unanswered after this long is sent to the next endpoint too (RPC_HEDGE_MS); 0: never. */
  readonly hedgeMs: number;
  readonly telemetry: Telemetry;
  readonly now?: () => number;
}

/** Why an attempt was stopped by the read itself (another endpoint answered first, or the caller gave up). */
const CANCELLED = Symbol("cancelled");

const outOfRotation = () => new RpcFailure("network", "every RPC endpoint is out of rotation");

/**
 * One transport over several endpoints, in order of preference. A read
 * goes to the first available endpoint; a fault that another node may not
 * have (see fault-kind.ts) sends it to the next one, within the read's
 * deadline, which is shared out between the endpoints still to try so that
 * a hanging first endpoint cannot take all of it. Reads are idempotent, so
 * asking again elsewhere loses and doubles nothing. With hedging, a read
 * still unanswered after `hedgeMs` is also sent to the next endpoint; the
 * first good answer wins and the other exchange is dropped.
 *
 * An answer whose JSON-RPC error says the node is unhealthy, behind or
 * without the method counts as a fault of that endpoint; when no endpoint
 * does better, the last such answer is returned as it is, so callers see
 * what a single endpoint would have given them.
 */
export function createFailoverTransport(
  url: string,
  members: readonly FailoverMember[],
  options: FailoverOptions,
): RpcTransport {
  const { timeoutMs, hedgeMs, telemetry } = options;
  const now = options.now ?? Date.now;
  const maxResponseBytes = Math.min(...members.map((member) => member.transport.maxResponseBytes));

  // Each attempt is posted with the read's payers: every endpoint tried, hedges included, is paid
  // for from the budgets of the requests it is for, and the read ends by the latest of their deadlines.
  function post(body: string, limits?: AnswerLimits, signal?: AbortSignal, payers?: PostPayers): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const deadline = now() + attemptTimeoutMs(payers, timeoutMs);
      const queue = [...members];
      const running = new Set<AbortController>();
      let settled = false;
      let lastFault: unknown;
      let conditionAnswer: NodeConditionFault | undefined;
      let hedgeTimer: ReturnType<typeof setTimeout> | undefined;
      let sentOnce = false;

      const finish = (settle: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(hedgeTimer);
        signal?.removeEventListener("abort", onCallerAbort);
        for (const controller of running) controller.abort(CANCELLED);
        running.clear();
        settle();
      };
      const onCallerAbort = () => finish(() => reject(new RpcFailure("timeout", "RPC read given up by its caller")));

      const availableLeft = () => queue.reduce((count, member) => count + (member.health.available ? 1 : 0), 0);

      /** Starts the read on the next available endpoint; false when none is left or the deadline passed. */
      const launch = (hedge: boolean): boolean => {
        while (queue.length > 0) {
          const member = queue.shift()!;
          if (!member.health.available) continue;
          const remaining = deadline - now();
          if (remaining < 1) return false;
          // This endpoint and every available one after it each get a share of what is left.
          const share = Math.max(1, Math.floor(remaining / (1 + availableLeft())));
          if (hedge) telemetry.rpcEndpointEvent(member.health.label, "hedge");
          // A traced request says why its post went to more than one endpoint (request-trace.ts).
          if (payers && (hedge || sentOnce))
            for (const budget of payers.keys()) budget.trace?.nextAttempt(payers, hedge ? "hedge" : "failover");
          sentOnce = true;
          attempt(member, share);
          return true;
        }
        return false;
      };

      const attempt = (member: FailoverMember, ms: number) => {
        const controller = new AbortController();
        running.add(controller);
        const timer = setTimeout(() => controller.abort(), ms);
        const done = () => {
          clearTimeout(timer);
          running.delete(controller);
        };
        member.health
          .run(async () => {
            try {
              const answer = await member.transport.post(body, limits, controller.signal, payers);
              const code = nodeConditionIn(answer);
              if (code !== undefined) throw new NodeConditionFault(code, answer);
              return answer;
            } catch (error) {
              // Not the endpoint's fault: not counted by its breaker.
              if (controller.signal.reason === CANCELLED) throw new AttemptCancelled("another endpoint answered first");
              throw error;
            }
          })
          .then(
            (answer) => {
              done();
              finish(() => resolve(answer));
            },
            (error: unknown) => {
              done();
              failed(member, error);
            },
          );
      };

      const failed = (member: FailoverMember, error: unknown) => {
        if (settled || error instanceof AttemptCancelled) return;
        const kind = failoverKindOf(error);
        if (error instanceof BrokenCircuitError) {
          lastFault ??= outOfRotation();
        } else if (kind === null) {
          // The same read would fail the same way anywhere.
          finish(() => reject(error));
          return;
        } else {
          if (countsAgainstEndpoint(error)) member.health.noteFault(kind, error);
          lastFault = error;
          if (error instanceof NodeConditionFault) conditionAnswer = error;
        }
        // A hedge already under way is this read's next endpoint.
        if (running.size > 0) return;
        if (launch(false)) {
          if (kind !== null) telemetry.rpcEndpointEvent(member.health.label, "failover");
          return;
        }
        finish(() => (conditionAnswer ? resolve(conditionAnswer.answer) : reject(lastFault ?? outOfRotation())));
      };

      const armHedge = () => {
        hedgeTimer = setTimeout(() => {
          if (settled) return;
          if (launch(true)) armHedge();
        }, hedgeMs);
      };

      if (signal?.aborted) return onCallerAbort();
      signal?.addEventListener("abort", onCallerAbort);
      if (!launch(false)) return finish(() => reject(outOfRotation()));
      if (hedgeMs > 0) armHedge();
    });
  }

  return { url, maxResponseBytes, post };
}
