import { encodeRecordV2Account } from "../../src/localnet/index.js";
import { addressToBytes } from "../../src/sns/bytes.js";
import { NAME_PROGRAM_ID } from "../../src/sns/constants.js";
import type { Rng } from "../rng.js";
import { type Build, type Effect, FALL, concat, put, undecodable } from "./layer.js";
import { otherThan, randomTarget } from "./owners.js";

// The V2 SOL record layer: staleness and right-of-association validations, content length, layout edges.

export const V2_KINDS = [
  "valid",
  "stale",
  "stale-roa-mismatch",
  "wrong-validation",
  "roa-mismatch",
  "content-short",
  "content-long",
  "trailing-bytes",
  "shorter-than-ids",
  "header-short",
  "invalid-validation",
] as const;
export type V2Kind = (typeof V2_KINDS)[number] | "none";
export const V2_FALL_KINDS: readonly V2Kind[] = ["none", "none", "stale", "stale-roa-mismatch"];

const ID_LENGTH = [0, 32, 20, 32] as const;

interface V2Fields {
  readonly sv: number;
  readonly rv: number;
  readonly stalenessId: Uint8Array;
  readonly roaId: Uint8Array;
  readonly content: Uint8Array;
  readonly contentLength?: number;
}

function v2Data(b: Build, f: V2Fields): Uint8Array {
  return encodeRecordV2Account({
    parent: addressToBytes(b.keys.domain),
    owner: addressToBytes(b.owner.address),
    stalenessValidation: f.sv,
    rightOfAssociationValidation: f.rv,
    stalenessId: f.stalenessId,
    roaId: f.roaId,
    content: f.content,
    ...(f.contentLength === undefined ? {} : { contentLength: f.contentLength }),
  });
}

/** Ids of the right length for arbitrary validation kinds; a 32-byte staleness id is usually the owner. */
function idsFor(b: Build, sv: number, rv: number, content: Uint8Array) {
  const { rng } = b;
  const sl = ID_LENGTH[sv as 0 | 1 | 2 | 3];
  const rl = ID_LENGTH[rv as 0 | 1 | 2 | 3];
  const stalenessId = sl === 32 && rng.bool(0.7) ? b.owner.bytes : rng.bytes(sl);
  const roaId = rl === 32 && content.length === 32 && rng.bool(0.5) ? content : rng.bytes(rl);
  return { stalenessId, roaId };
}

/** A contentLength field that disagrees with the content, which readers must ignore. */
const lyingLength = (rng: Rng): number | undefined =>
  rng.bool(0.3) ? rng.pick([0, 1, 31, 33, 64, 0xffffffff]) : undefined;

export function v2Layer(b: Build, kind: V2Kind): Effect {
  const { rng } = b;
  if (kind === "none") return FALL;
  const target = randomTarget(rng, b.name);
  const write = (data: Uint8Array) => put(b, b.keys.solV2, NAME_PROGRAM_ID, data);
  const fresh = { sv: 1, rv: 1, stalenessId: b.owner.bytes, roaId: target, content: target };
  const anyValidation = () => rng.int(0, 3);
  switch (kind) {
    case "valid": {
      const contentLength = lyingLength(rng);
      write(v2Data(b, { ...fresh, ...(contentLength === undefined ? {} : { contentLength }) }));
      return { kind: "key", key: target, source: "v2" };
    }
    case "stale":
      write(v2Data(b, { ...fresh, stalenessId: otherThan(rng, b.owner.bytes) }));
      return FALL;
    case "stale-roa-mismatch":
      // Staleness is checked before the RoA, so a stale record never reaches the RoA check.
      write(v2Data(b, { ...fresh, stalenessId: otherThan(rng, b.owner.bytes), roaId: otherThan(rng, target) }));
      return FALL;
    case "wrong-validation": {
      let sv = 1;
      let rv = 1;
      while (sv === 1 && rv === 1) [sv, rv] = [anyValidation(), anyValidation()];
      write(v2Data(b, { sv, rv, ...idsFor(b, sv, rv, target), content: target }));
      return { kind: "error", error: "WrongValidation" };
    }
    case "roa-mismatch":
      write(v2Data(b, { ...fresh, roaId: otherThan(rng, target) }));
      return { kind: "error", error: "InvalidRoA" };
    case "content-short":
    case "content-long": {
      const length = kind === "content-short" ? rng.int(0, 31) : rng.int(33, 96);
      const content = rng.bytes(length);
      const [sv, rv] = rng.bool(0.6) ? [1, 1] : [anyValidation(), anyValidation()];
      write(v2Data(b, { sv, rv, ...idsFor(b, sv, rv, content), content }));
      return { kind: "error", error: "RecordMalformed" };
    }
    case "trailing-bytes":
      // contentLength says 32, but content runs to the end of the account.
      write(v2Data(b, { ...fresh, content: concat(target, rng.bytes(rng.int(1, 16))), contentLength: 32 }));
      return { kind: "error", error: "RecordMalformed" };
    case "shorter-than-ids": {
      let sv = 0;
      let rv = 0;
      while (ID_LENGTH[sv as 0]! + ID_LENGTH[rv as 0]! === 0) [sv, rv] = [anyValidation(), anyValidation()];
      const idsLength = ID_LENGTH[sv as 0]! + ID_LENGTH[rv as 0]!;
      const full = v2Data(b, { sv, rv, ...idsFor(b, sv, rv, target), content: target });
      write(full.subarray(0, 104 + rng.int(0, idsLength - 1)));
      // The SDK slices the ids short and finds empty content.
      return { kind: "error", error: "RecordMalformed" };
    }
    case "header-short": {
      const length = rng.int(0, 103);
      write(v2Data(b, fresh).subarray(0, length));
      return undecodable(`V2 SOL record of ${length} bytes`);
    }
    case "invalid-validation": {
      const bad = () => rng.pick([4, 5, 255, 256, 0x7fff, 0xffff]);
      const [sv, rv] = rng.pick([
        [bad(), 1],
        [1, bad()],
        [bad(), bad()],
        [0, bad()],
      ]) as [number, number];
      const roaId = rng.bytes(rng.pick([0, 20, 32]));
      write(v2Data(b, { sv, rv, stalenessId: b.owner.bytes, roaId, content: target }));
      return undecodable(`V2 SOL record with validations ${sv}/${rv}`);
    }
  }
}
