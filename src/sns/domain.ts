import { SNS_TLD, SOL_TLD } from "./constants.js";
import { SnsError } from "./errors.js";

export type Tld = typeof SNS_TLD | typeof SOL_TLD;

export interface FullDomain {
  readonly tld: Tld;
  /** TLD-less name: `label` or `sub.label`. */
  readonly name: string;
  readonly labels: readonly string[];
}

/** Trim then lowercase, as the upstream proxy normalizes path input. */
export const normalizeName = (raw: string): string => raw.trim().toLowerCase();

/**
 * Splits a TLD-less name into one or two non-empty labels.
 * Throws INVALID_INPUT for empty labels or more than `maxLabels`.
 */
export function parseLabels(name: string, allowed: readonly number[] = [1, 2]): string[] {
  const labels = name.split(".");
  if (!allowed.includes(labels.length)) {
    throw new SnsError("INVALID_INPUT", `${labels.length} labels before the suffix (${allowed.join(" or ")} allowed)`);
  }
  if (labels.some((label) => label.length === 0)) throw new SnsError("INVALID_INPUT", "an empty label");
  return labels;
}

/**
 * Parses a full domain in the spec's order: normalize, suffix (`.sns` checked
 * first, then `.sol`), then labels.
 */
export function parseFullDomain(raw: string): FullDomain {
  const full = normalizeName(raw);
  const tld: Tld | undefined = full.endsWith(SNS_TLD) ? SNS_TLD : full.endsWith(SOL_TLD) ? SOL_TLD : undefined;
  if (!tld) throw new SnsError("UNSUPPORTED_TLD", "domain has an unsupported TLD suffix");
  const name = full.slice(0, -tld.length);
  const labels = parseLabels(name);
  return { tld, name, labels };
}
