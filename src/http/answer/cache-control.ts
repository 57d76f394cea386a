/** Never kept by a shared cache: errors, and answers read through an `rpc` override. */
export const NO_STORE = "no-store";

/**
 * The `Cache-Control` of an answer, given the policy its path earns on
 * success (cache-policy.ts): errors are never shared.
 */
export const cacheControlFor = (sharedPolicy: string, status: number): string =>
  status < 400 ? sharedPolicy : NO_STORE;

/**
 * A shared policy kept no longer than `lifetimeMs` (an answer that stops
 * being true then, such as one read from an expiring SRS record): its
 * `max-age` lowered to the whole seconds left, or `no-store` under one.
 */
export function boundedPolicy(policy: string, lifetimeMs: number): string {
  const seconds = Math.floor(lifetimeMs / 1000);
  if (seconds < 1) return NO_STORE;
  return policy.replace(/max-age=(\d+)/, (all, current: string) =>
    Number(current) > seconds ? `max-age=${seconds}` : all,
  );
}
