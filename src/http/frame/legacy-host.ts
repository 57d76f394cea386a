import type { LegacyHosts } from "../../config.js";

/**
 * The host name a `Host` header names: lower case, without its port or a trailing dot (`[::1]:3000` is
 * `[::1]`); undefined when there is none.
 */
export function hostNameOf(header: string | null | undefined): string | undefined {
  if (!header) return undefined;
  const host = header.trim().toLowerCase();
  const end = host.startsWith("[") ? host.indexOf("]") + 1 : host.indexOf(":");
  const name = end > 0 ? host.slice(0, end) : host;
  return name.endsWith(".") ? name.slice(0, -1) : name;
}

/** Whether a request with this `Host` header is answered by the legacy profile (LEGACY_HOSTS). */
export function servesLegacy(legacy: LegacyHosts, hostHeader: string | null | undefined): boolean {
  if (legacy.all) return true;
  const name = hostNameOf(hostHeader);
  return name !== undefined && legacy.hosts.has(name);
}
