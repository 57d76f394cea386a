/**
 * Paths for the operator, not for clients (probes, scrapers), answered by v1 whatever the Host (app.ts): the
 * retired hosts had none of them, so no legacy client asks for them, and `LEGACY_HOSTS=*` must not hide them.
 */
export const OPERATOR_PATHS: ReadonlySet<string> = new Set(["/health", "/ready", "/metrics"]);
