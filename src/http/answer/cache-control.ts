/** Never kept by a shared cache: errors, and answers read through an `rpc` override. */
export const NO_STORE = "no-store";

/**
 * The `Cache-Control` of an answer, given the policy its path earns on
 * success (cache-policy.ts): errors are never shared.
 */
export const cacheControlFor = (sharedPolicy: string, status: number): string => (status < 400 ? sharedPolicy : NO_STORE);
