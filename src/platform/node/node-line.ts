/**
 * The Node.js lines this gateway runs on (package.json `engines`: ^20.19.0 || >=22.12.0)
 * and when each stops receiving security fixes, from the Node.js release
 * schedule. A line past that date still runs the gateway; an operator is
 * told once, at startup, so the upgrade is a decision rather than a surprise.
 */
const END_OF_LIFE: Readonly<Record<number, string>> = {
  20: "2026-04-30",
  22: "2027-04-30",
  23: "2025-06-01",
  24: "2028-04-30",
  25: "2026-06-01",
  26: "2029-04-30",
};

/** The startup warning for `version` (`process.version`) on `today`, or undefined while its line is supported. */
export function nodeLineWarning(version: string, today: Date): string | undefined {
  const major = Number.parseInt(version.replace(/^v/, ""), 10);
  const endOfLife = END_OF_LIFE[major];
  if (endOfLife === undefined || today < new Date(`${endOfLife}T00:00:00Z`)) return undefined;
  return `Node.js ${major} is past its end of life (${endOfLife}) and receives no security fixes: the gateway runs, but upgrade to Node.js 22 or 24`;
}
