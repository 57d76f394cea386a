/**
 * `argv` run by `sh` with the soft limit on open descriptors raised to the
 * hard one (a default soft limit of 1,024 is far below what a test opening
 * thousands of connections needs); `exec` keeps the pid.
 */
export function withHardDescriptorLimit(argv: readonly string[]): [string, string[]] {
  return ["sh", ["-c", 'ulimit -n "$(ulimit -Hn)" 2>/dev/null; exec "$@"', "sh", ...argv]];
}
