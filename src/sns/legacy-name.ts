import { SNS_TLD, SOL_TLD } from "./constants.js";
import { type FullDomain, parseLabels } from "./domain.js";

/**
 * A name as the retired hosts' API takes it (the legacy profile, docs/legacy.md): exactly as received, no
 * trimming and no lowercasing, so that it names the account those hosts read (`X` is not `x`). A bare `label`
 * or `sub.label` is the `.sns` name it always was; `label.sns` is the same name (the retired hosts read it as
 * the subdomain `label` of a parent named `sns`, an account no client meant); `label.sol` keeps its `.sol`
 * suffix, so that the resolver applies today's `.sol` rule to it (the cutoff, SRS). One or two non-empty
 * labels; anything else throws INVALID_INPUT.
 */
export function parseLegacyName(raw: string): FullDomain {
  const tld = raw.endsWith(SOL_TLD) ? SOL_TLD : SNS_TLD;
  const name = raw.endsWith(tld) ? raw.slice(0, -tld.length) : raw;
  return { tld, name, labels: parseLabels(name) };
}
