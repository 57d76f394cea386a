import type { ChainReader } from "../chain.js";
import { SOL_TLD } from "../constants.js";
import type { FullDomain } from "../domain.js";
import { SnsError } from "../errors.js";
import { parseLegacyName } from "../legacy-name.js";

/**
 * A name of the legacy profile (legacy-name.ts) on a route that reads its accounts: a `.sol` name is the
 * same account as its `.sns` name only while `.sol` is open on this chain (before the cutoff slot) and SRS
 * resolution is off; otherwise the name is refused (UNSUPPORTED_TLD), as the resolver refuses it past the
 * cutoff and as v1 with SRS on takes only `.sns` for every full-domain read but resolve, so no route answers
 * for a `.sol` name what a `.sol` registry (past the cutoff, or its SRS record) may have given to someone else.
 */
export async function openLegacyName(chain: ChainReader, raw: string, srs: boolean): Promise<FullDomain> {
  const domain = refuseSrsSol(raw, srs);
  if (domain.tld === SOL_TLD && (await chain.isSolCutoffReached())) {
    throw new SnsError("UNSUPPORTED_TLD", "`.sol` names are past their cutoff slot");
  }
  return domain;
}

/**
 * A name of the legacy profile, refused when it is a `.sol` name and SRS resolution is on (its owner is then
 * its SRS record's, not its `.sns` account's): for the routes that read no chain, and for openLegacyName.
 */
export function refuseSrsSol(raw: string, srs: boolean): FullDomain {
  const domain = parseLegacyName(raw);
  if (srs && domain.tld === SOL_TLD) {
    throw new SnsError("UNSUPPORTED_TLD", "`.sol` names resolve through SRS: their `.sns` accounts are not theirs");
  }
  return domain;
}
