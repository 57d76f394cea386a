import type { Address } from "@solana/kit";
import { assertSameTarget } from "../sns/queries/resolve.js";

/** One side of a cross-check: its key or whatever it failed with (an RPC fault too). */
export type SideOutcome =
  { readonly ok: true; readonly key: Address } | { readonly ok: false; readonly error: unknown };
export type Side = SideOutcome | Promise<SideOutcome>;

/** The side `resolve` gives: at once when it answers (or throws) at once, else when it settles; never rejects. */
export function sideOf(resolve: () => Address | Promise<Address>): Side {
  try {
    const key = resolve();
    if (typeof key === "string") return { ok: true, key };
    return key.then(
      (resolved): SideOutcome => ({ ok: true, key: resolved }),
      (error: unknown): SideOutcome => ({ ok: false, error }),
    );
  } catch (error) {
    return { ok: false, error };
  }
}

/** The answer of a cross-check: the SRS side's failure first, then the name service's, then the keys must agree. */
export function agreed(name: string, srs: SideOutcome, sns: SideOutcome): Address {
  if (!srs.ok) throw srs.error;
  if (!sns.ok) throw sns.error;
  return assertSameTarget(name, sns.key, srs.key);
}
