import type { Address } from "@solana/kit";
import { encodeNameRegistry } from "../../src/localnet/index.js";
import { bytesToAddress } from "../../src/sns/bytes.js";
import { NAME_PROGRAM_ID, SNS_ROOT_DOMAIN } from "../../src/sns/constants.js";
import { type Build, type Effect, FALL, put, undecodable } from "./layer.js";
import { OTHER_PROGRAMS } from "./owners.js";

// The first layer: the domain's name registry account, missing, short, or under another program.

export type DomainKind = "present" | "missing" | "short" | "foreign-program";

export function domainLayer(b: Build, kind: DomainKind, parentKey: Address | undefined): Effect {
  if (kind === "missing") return { kind: "error", error: "DomainDoesNotExist" };
  const header = {
    parent: b.rng.bool(0.9) ? (parentKey ?? SNS_ROOT_DOMAIN) : bytesToAddress(b.rng.bytes(32)),
    owner: b.owner.address,
    ...(b.rng.bool(0.1) ? { nameClass: bytesToAddress(b.rng.bytes(32)) } : {}),
  };
  const full = encodeNameRegistry(header, b.rng.pick([0, 0, 1, 32, 200, 1000, b.rng.int(0, 2000)]));
  if (kind === "short") {
    const length = b.rng.int(0, 95);
    put(b, b.keys.domain, NAME_PROGRAM_ID, full.subarray(0, length));
    return undecodable(`domain account of ${length} bytes`);
  }
  put(b, b.keys.domain, kind === "foreign-program" ? b.rng.pick(OTHER_PROGRAMS) : NAME_PROGRAM_ID, full);
  return FALL;
}
