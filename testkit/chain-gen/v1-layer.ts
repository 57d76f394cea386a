import { encodeRecordV1Sol, recordV1SolMessage } from "../../src/localnet/index.js";
import { addressToBytes, bytesEqual, bytesToAddress, toHex, utf8 } from "../../src/sns/bytes.js";
import { NAME_PROGRAM_ID } from "../../src/sns/constants.js";
import { type Build, type Effect, FALL, concat, put, undecodable } from "./layer.js";
import { randomIdentity, randomTarget } from "./owners.js";
import {
  NON_CANONICAL_SMALL_ORDER_R,
  malleated,
  nonCanonicalRSignature,
  signFast,
  smallOrderForgery,
} from "./signatures.js";

// The V1 SOL record layer: the owner's ed25519 signature over the target and the record key, and the
// signatures verifiers disagree on.

export const V1_KINDS = [
  "valid",
  "trailing-bytes",
  "wrong-signer",
  "corrupted-signature",
  "raw-bytes-message",
  "uppercase-hex-message",
  "wrong-record-key",
  "malleable-s",
  "forged-small-order-owner",
  "non-canonical-r-canonical-hash",
  "non-canonical-r-raw-hash",
  "short-payload",
] as const;
export type V1Kind = (typeof V1_KINDS)[number] | "none";
export const V1_FALL_KINDS: readonly V1Kind[] = [
  "none",
  "none",
  "none",
  "wrong-signer",
  "corrupted-signature",
  "raw-bytes-message",
  "uppercase-hex-message",
  "wrong-record-key",
  "malleable-s",
];
/** Kinds that only fit some owners. */
export const needsSigner = (kind: V1Kind) =>
  kind === "valid" ||
  kind === "trailing-bytes" ||
  kind === "non-canonical-r-canonical-hash" ||
  kind === "non-canonical-r-raw-hash";

export function v1Layer(b: Build, kind: V1Kind): Effect {
  const { rng, owner: o, keys } = b;
  if (kind === "none") return FALL;
  const target = randomTarget(rng, b.name);
  const targetAddress = bytesToAddress(target);
  const message = recordV1SolMessage(targetAddress, keys.solV1);
  const ownerSigner = o.signer ?? randomIdentity(rng);
  const write = (signature: Uint8Array, extra?: Uint8Array) => {
    const data = encodeRecordV1Sol({ domainKey: keys.domain, owner: o.address, target: targetAddress, signature });
    put(b, keys.solV1, NAME_PROGRAM_ID, extra ? concat(data, extra) : data);
  };
  const accepted: Effect = { kind: "key", key: target, source: "v1" };
  switch (kind) {
    case "valid":
      write(signFast(ownerSigner, message));
      return accepted;
    case "trailing-bytes":
      write(signFast(ownerSigner, message), rng.bytes(rng.int(1, 64)));
      return accepted;
    case "wrong-signer": {
      let signer = randomIdentity(rng);
      while (bytesEqual(signer.publicKey, o.bytes)) signer = randomIdentity(rng);
      write(signFast(signer, message));
      return FALL;
    }
    case "corrupted-signature": {
      const signature = signFast(ownerSigner, message);
      const index = rng.int(0, 63);
      signature[index] = signature[index]! ^ (1 << rng.int(0, 7));
      write(signature);
      return FALL;
    }
    case "raw-bytes-message":
      write(signFast(ownerSigner, concat(target, addressToBytes(keys.solV1))));
      return FALL;
    case "uppercase-hex-message":
      write(signFast(ownerSigner, utf8.encode((toHex(target) + toHex(addressToBytes(keys.solV1))).toUpperCase())));
      return FALL;
    case "wrong-record-key": {
      const other = rng.pick([keys.domain, keys.solV2, keys.nftRecord]);
      write(signFast(ownerSigner, recordV1SolMessage(targetAddress, other)));
      return FALL;
    }
    case "malleable-s":
      write(malleated(signFast(ownerSigner, message)));
      return FALL;
    case "forged-small-order-owner":
      write(smallOrderForgery(BigInt(rng.int(1, 2 ** 31)) * BigInt(rng.int(1, 2 ** 31))));
      return accepted;
    case "non-canonical-r-canonical-hash":
    case "non-canonical-r-raw-hash": {
      const hashOver = kind === "non-canonical-r-canonical-hash" ? "canonical" : "raw";
      write(nonCanonicalRSignature(ownerSigner, message, rng.pick(NON_CANONICAL_SMALL_ORDER_R), hashOver));
      // The SDK's verifier hashes the canonical re-encoding of R.
      return hashOver === "canonical" ? accepted : FALL;
    }
    case "short-payload": {
      const length = rng.int(0, 191);
      const full = encodeRecordV1Sol({
        domainKey: keys.domain,
        owner: o.address,
        target: targetAddress,
        signature: signFast(ownerSigner, message),
      });
      put(b, keys.solV1, NAME_PROGRAM_ID, full.subarray(0, length));
      return undecodable(`V1 SOL record of ${length} bytes`);
    }
  }
}
