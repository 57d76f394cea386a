import type { Rng } from "../rng.js";
import type { DomainKind } from "./domain-layer.js";
import type { Mode } from "./layer.js";
import type { NftKind } from "./nft-layer.js";
import type { Owner, OwnerKind } from "./owners.js";
import type { BranchLabel } from "./types.js";
import { type V1Kind, V1_FALL_KINDS, V1_KINDS, needsSigner } from "./v1-layer.js";
import type { V2Kind } from "./v2-layer.js";

// Per branch label, what each layer of a state is: the labelled layer is the edge itself, layers above
// it fall through, layers below are any junk (never reached).

export interface Recipe {
  readonly domain: DomainKind;
  readonly owner: OwnerKind | "random";
  readonly pdaAccount?: "allowed" | "other" | "none";
  readonly nft: NftKind | Mode;
  readonly v2: V2Kind | Mode;
  readonly v1: V1Kind | Mode;
}

export function recipeFor(label: BranchLabel): Recipe {
  const [group, edge] = label.split("/") as [string, string];
  switch (group) {
    case "domain":
      return { domain: edge as DomainKind, owner: "random", nft: "any", v2: "any", v1: "any" };
    case "owner": {
      const pda = edge.startsWith("pda-") ? edge.slice(4) : undefined;
      const pdaAccount = pda === "allowed-program" ? "allowed" : pda === "other-program" ? "other" : "none";
      return {
        domain: "present",
        owner: pda ? "pda" : edge === "on-curve" ? "identity" : (edge as OwnerKind),
        ...(pda ? { pdaAccount } : {}),
        nft: "fall",
        v2: "fall",
        v1: "fall",
      } as Recipe;
    }
    case "nft":
      return { domain: "present", owner: "random", nft: edge as NftKind, v2: "any", v1: "any" };
    case "v2":
      return { domain: "present", owner: "random", nft: "fall", v2: edge as V2Kind, v1: "any" };
    default: {
      const v1 = edge as V1Kind;
      const ownerKind: OwnerKind | "random" =
        v1 === "forged-small-order-owner" ? "small-order" : needsSigner(v1) ? "identity" : "random";
      return { domain: "present", owner: ownerKind, nft: "fall", v2: "fall", v1 };
    }
  }
}

/** The kind a layer gets: the recipe's own, a fall-through variant, or for "any" none or any kind. */
export function chooseKind<K extends string>(
  rng: Rng,
  mode: K | Mode,
  kinds: readonly K[],
  fallKinds: readonly K[],
): K | "none" {
  if (mode === "fall") return rng.pick(fallKinds);
  if (mode === "any") return rng.bool(0.4) ? "none" : rng.pick(kinds);
  return mode;
}

export function chooseV1(rng: Rng, mode: V1Kind | Mode, o: Owner): V1Kind {
  if (mode === "fall") return rng.pick(V1_FALL_KINDS);
  if (mode !== "any") return mode;
  if (rng.bool(0.4)) return "none";
  // Junk below the deciding layer never includes the non-canonical-R pair, so
  // a verifier disagreement on those shows up under their own labels only.
  const fits = V1_KINDS.filter(
    (kind) =>
      !kind.startsWith("non-canonical-r") &&
      (!needsSigner(kind) || o.signer !== undefined) &&
      (kind !== "forged-small-order-owner" || o.kind === "small-order"),
  );
  return rng.pick(fits);
}
