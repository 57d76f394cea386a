import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToAddress, utf8 } from "../../sns/bytes.js";
import { configParam, contextSlot } from "../params.js";
import { badParams } from "../json-rpc-error-answer.js";
import { FEATURE_SET, type MethodHandler, SOLANA_CORE_VERSION, withContext } from "./context.js";

const SLOTS_PER_EPOCH = 432_000;
/** A blockhash stays valid for 150 blocks after the one it names. */
const BLOCKHASH_LIFETIME = 150;

/** Distinct from mainnet's so nothing mistakes this ledger for a real cluster. */
export const GENESIS_HASH = bytesToAddress(sha256(utf8.encode("sns-localnet:genesis")));
export const NODE_IDENTITY = bytesToAddress(sha256(utf8.encode("sns-localnet:identity")));

const computeBlockhash = (slot: number) => bytesToAddress(sha256(utf8.encode(`sns-localnet:blockhash:${slot}`)));

let lastBlockhash = { slot: -1, hash: "" };

/** Deterministic per slot, so responses are reproducible across runs. */
export function blockhashAt(slot: number): string {
  if (lastBlockhash.slot !== slot) lastBlockhash = { slot, hash: computeBlockhash(slot) };
  return lastBlockhash.hash;
}

// The ledger has no skipped slots, so block height and slot coincide.
export const getSlot: MethodHandler = (params, ledger) => contextSlot(ledger, configParam(params, 0));

export const getBlockHeight: MethodHandler = (params, ledger) => contextSlot(ledger, configParam(params, 0));

export const getLatestBlockhash: MethodHandler = (params, ledger) => {
  const slot = contextSlot(ledger, configParam(params, 0));
  return withContext(slot, { blockhash: blockhashAt(slot), lastValidBlockHeight: slot + BLOCKHASH_LIFETIME });
};

export const isBlockhashValid: MethodHandler = (params, ledger) => {
  const blockhash = params[0];
  if (typeof blockhash !== "string") throw badParams("invalid type, expected a string");
  const slot = contextSlot(ledger, configParam(params, 1));
  let valid = blockhashAt(slot) === blockhash;
  for (let s = slot - 1; s >= Math.max(0, slot - BLOCKHASH_LIFETIME) && !valid; s--) {
    valid = computeBlockhash(s) === blockhash;
  }
  return withContext(slot, valid);
};

export const getEpochInfo: MethodHandler = (params, ledger) => {
  const slot = contextSlot(ledger, configParam(params, 0));
  return {
    absoluteSlot: slot,
    blockHeight: slot,
    epoch: Math.floor(slot / SLOTS_PER_EPOCH),
    slotIndex: slot % SLOTS_PER_EPOCH,
    slotsInEpoch: SLOTS_PER_EPOCH,
    transactionCount: 0,
  };
};

export const getHealth: MethodHandler = () => "ok";

export const getVersion: MethodHandler = () => ({ "feature-set": FEATURE_SET, "solana-core": SOLANA_CORE_VERSION });

export const getGenesisHash: MethodHandler = () => GENESIS_HASH;

export const getIdentity: MethodHandler = () => ({ identity: NODE_IDENTITY });
