/**
 * Labels for a list of endpoint URLs, for metrics and logs: the host (and
 * port) alone, since provider URLs carry API keys in their credentials, path
 * or query. Two URLs on one host are told apart by their position.
 */
export function hostLabels(urls: readonly string[]): string[] {
  const hosts = urls.map((url) => new URL(url).host.toLowerCase());
  return hosts.map((host, i) => (hosts.indexOf(host) === hosts.lastIndexOf(host) ? host : `${host}#${i + 1}`));
}
