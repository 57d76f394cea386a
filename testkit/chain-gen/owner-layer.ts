import type { Owner } from "./owners.js";
import { type Build, type Effect, put } from "./layer.js";
import { ALLOWED_PDA_PROGRAM, type PdaPolicyName } from "./types.js";

// The last layer: the registry owner, unless it is off the curve and the PDA policy refuses it.

export function ownerEffect(o: Owner, policy: PdaPolicyName): Effect {
  const resolved: Effect = { kind: "key", key: o.bytes, source: "owner" };
  if (o.onCurve || policy === "any") return resolved;
  if (policy === "programs" && o.accountProgram === ALLOWED_PDA_PROGRAM) return resolved;
  return { kind: "error", error: "PdaOwnerNotAllowed" };
}

export function putOwnerAccount(b: Build): void {
  const program = b.owner.accountProgram;
  if (program !== null) put(b, b.owner.address, program, b.rng.bytes(b.rng.int(0, 64)));
}
