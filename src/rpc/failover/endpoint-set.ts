import type { Telemetry } from "../../telemetry.js";
import { type BreakerSettings, EndpointHealth } from "./endpoint-health.js";
import { hostLabels } from "./host-label.js";

/**
 * Breaker settings of `RPC_URL` endpoints: five faults in a row take one out
 * of rotation for about a second, then doubling up to a minute while its
 * probes fail.
 */
export const breakerSettings = (timeoutMs: number): BreakerSettings => ({
  faultsToOpen: 5,
  firstPauseMs: 1000,
  maxPauseMs: 60_000,
  probeGiveUpMs: 2 * timeoutMs,
});

/** The health of every endpoint of a several-URL `RPC_URL`, in its order; kept for the life of the gateway. */
export function endpointHealths(
  urls: readonly string[],
  settings: BreakerSettings,
  telemetry: Telemetry,
): EndpointHealth[] {
  return hostLabels(urls).map((label) => new EndpointHealth(label, settings, telemetry));
}
