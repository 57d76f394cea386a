import {
  CircuitBreakerPolicy,
  CircuitState,
  ConsecutiveBreaker,
  ExponentialBackoff,
  type IBackoff,
  type IBackoffFactory,
  circuitBreaker,
  halfJitterGenerator,
  handleWhen,
} from "cockatiel";
import { HttpStatusError } from "../errors.js";
import type { EndpointCircuitState, Telemetry } from "../../telemetry.js";
import { type EndpointFaultKind, countsAgainstEndpoint } from "./fault-kind.js";

export interface BreakerSettings {
  /** Consecutive faults that take an endpoint out of rotation. */
  readonly faultsToOpen: number;
  /** First pause out of rotation (half to all of it); doubles each time a probe fails, up to `maxPauseMs`. */
  readonly firstPauseMs: number;
  readonly maxPauseMs: number;
  /**
   * A probe still unsettled after this long is given up on (a Workers
   * request that carried it may have ended without settling it): the next
   * read probes again.
   */
  readonly probeGiveUpMs: number;
}

/**
 * An attempt stopped by its read, not by the endpoint (another endpoint
 * answered first, or the caller gave up): no fault of the endpoint, and,
 * for a probe, no sign that it is back either.
 */
export class AttemptCancelled extends Error {
  override readonly name = "AttemptCancelled";
}

/** A breaker's `toJSON()` whose open circuit is due for its probe at once (cockatiel's own form of a half-open one). */
function dueAtOnce(saved: unknown): unknown {
  const { ownState, ...rest } = saved as { ownState: Record<string, unknown> };
  return ownState.value === CircuitState.Open ? { ...rest, ownState: { ...ownState, openedAt: 0 } } : saved;
}

const CIRCUIT_LABEL: Record<CircuitState, EndpointCircuitState> = {
  [CircuitState.Closed]: "closed",
  [CircuitState.Open]: "open",
  [CircuitState.HalfOpen]: "half_open",
  [CircuitState.Isolated]: "open",
};

/**
 * What the gateway knows of one endpoint of `RPC_URL`: a circuit breaker
 * (cockatiel) counting the faults that fail reads over to another endpoint,
 * and a rest time asked by a 429's `Retry-After`. Plain state, no pending
 * promise that other reads wait on: it may be shared by every request of a
 * process or of a Workers isolate.
 */
export class EndpointHealth {
  private breaker: CircuitBreakerPolicy;
  /** No read is sent before this time (ms since epoch): a `Retry-After` is honoured. */
  private restUntil = 0;
  private halfOpenSince = 0;
  /** Pause of the breaker's latest opening (ms), as its backoff chose it. */
  private lastPauseMs = 0;
  /** While open, no read is let through before this time (cockatiel's clock, Date.now). */
  private pauseUntil = 0;
  /** The last fault counted here, and when (ms since epoch): `/ready` shows it. */
  private fault: { readonly kind: EndpointFaultKind; readonly at: number } | undefined;

  constructor(
    readonly label: string,
    private readonly settings: BreakerSettings,
    private readonly telemetry: Telemetry,
    private readonly now: () => number = Date.now,
  ) {
    this.breaker = this.makeBreaker();
    telemetry.rpcEndpointCircuit(label, "closed");
  }

  /** `initialState`: a previous breaker's `toJSON()` (cockatiel's own hydration). */
  private makeBreaker(initialState?: unknown): CircuitBreakerPolicy {
    const { faultsToOpen, firstPauseMs, maxPauseMs } = this.settings;
    // Half jitter: each pause between half and all of its doubling (the first 0.5–1 s). cockatiel's default,
    // decorrelated jitter, may draw a first pause of a few milliseconds: an endpoint just taken out of rotation
    // was then probed again at once.
    const backoff = new ExponentialBackoff({
      generator: halfJitterGenerator,
      initialDelay: firstPauseMs,
      maxDelay: maxPauseMs,
    });
    // Each pause is remembered as cockatiel draws it (it opens right after), so `available` knows when it ends.
    const remembered = <C>(pause: IBackoff<C>): IBackoff<C> => {
      this.lastPauseMs = pause.duration;
      return { duration: pause.duration, next: (context) => remembered(pause.next(context)) };
    };
    const halfOpenAfter: IBackoffFactory<unknown> = { next: () => remembered(backoff.next()) };
    const breaker = circuitBreaker(handleWhen(countsAgainstEndpoint), {
      halfOpenAfter,
      breaker: new ConsecutiveBreaker(faultsToOpen),
      ...(initialState !== undefined && { initialState }),
    });
    breaker.onStateChange((state) => {
      if (state === CircuitState.HalfOpen) this.halfOpenSince = this.now();
      if (state === CircuitState.Open) this.pauseUntil = Date.now() + this.lastPauseMs;
      this.telemetry.rpcEndpointCircuit(this.label, CIRCUIT_LABEL[state]);
    });
    return breaker;
  }

  get circuit(): EndpointCircuitState {
    return CIRCUIT_LABEL[this.breaker.state];
  }

  /** The last fault counted here and when (ms since epoch); undefined while none was. */
  get lastFault(): { readonly kind: EndpointFaultKind; readonly at: number } | undefined {
    return this.fault;
  }

  /**
   * Whether a read may be tried here now: not resting after a 429, not
   * being probed by another read, not open within its pause. An open
   * circuit whose pause is over is available: the read that gets it is the
   * probe (cockatiel's half-open).
   */
  get available(): boolean {
    if (this.now() < this.restUntil) return false;
    const state = this.breaker.state;
    if (state === CircuitState.Open && Date.now() < this.pauseUntil) return false;
    if (state === CircuitState.HalfOpen) {
      if (this.now() - this.halfOpenSince < this.settings.probeGiveUpMs) return false;
      this.reopenWithProbeDue(this.breaker.toJSON());
    }
    return state !== CircuitState.Isolated;
  }

  /**
   * Runs one exchange through the breaker. Throws cockatiel's
   * BrokenCircuitError, without running it, while the circuit is open.
   */
  run<T>(exchange: () => Promise<T>): Promise<T> {
    let probe: unknown;
    return this.breaker
      .execute(() => {
        // Not closed as the exchange starts (cockatiel marks the circuit half-open only after it has
        // started the probe): this exchange is the probe. Kept as open with the probe due at once.
        if (this.breaker.state !== CircuitState.Closed) probe = dueAtOnce(this.breaker.toJSON());
        this.telemetry.rpcEndpointEvent(this.label, "request");
        return exchange();
      })
      .catch((error: unknown) => {
        // cockatiel closes the circuit on an error its policy does not count, which a cancelled
        // probe is: reopened as it was instead, with the probe due at once, as a probe given up is.
        if (probe !== undefined && error instanceof AttemptCancelled) {
          this.reopenWithProbeDue(probe);
          this.telemetry.rpcEndpointCircuit(this.label, CIRCUIT_LABEL[CircuitState.Open]);
        }
        throw error;
      });
  }

  /** Open as `saved` (a breaker's `toJSON()` with the probe due at once), and past its pause: the next read probes. */
  private reopenWithProbeDue(saved: unknown): void {
    this.breaker = this.makeBreaker(saved);
    this.pauseUntil = 0;
  }

  /** Counts a fault, and honours the `Retry-After` of a 429 or 503. */
  noteFault(kind: EndpointFaultKind, error: unknown): void {
    this.telemetry.rpcEndpointFault(this.label, kind);
    this.fault = { kind, at: Date.now() };
    if (
      error instanceof HttpStatusError &&
      error.retryAfterMs !== undefined &&
      (error.status === 429 || error.status === 503)
    ) {
      this.restUntil = Math.max(this.restUntil, this.now() + error.retryAfterMs);
    }
  }
}
