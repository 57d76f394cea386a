import type { ChainReader } from "../chain.js";
import { SOL_TLD } from "../constants.js";
import type { FullDomain } from "../domain.js";
import { SnsError } from "../errors.js";
import { parseLegacyName } from "../legacy-name.js";

/**
 * A name of the legacy profile (legacy-name.ts) on a route that reads its accounts: a `.sol` name is the
 * same account as its `.sns` name only while `.sol` is open on this chain (before the cutoff slot); past it
 * the name is refused (UNSUPPORTED_TLD), as the resolver refuses it, so no route answers for a `.sol` name
 * what a `.sol` registry may since have given to someone else.
 */
export async function openLegacyName(chain: ChainReader, raw: string): Promise<FullDomain> {
  const domain = parseLegacyName(raw);
  if (domain.tld === SOL_TLD && (await chain.isSolCutoffReached())) {
    throw new SnsError("UNSUPPORTED_TLD", "`.sol` names are past their cutoff slot");
  }
  return domain;
}
