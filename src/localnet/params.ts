import { addressToBytes } from "../sns/bytes.js";
import type { Commitment, Ledger } from "./ledger.js";
import { ErrorCode, JsonRpcErrorAnswer, badParams, invalidParams } from "./json-rpc-error-answer.js";

/** Positional params as sent; a missing array means no params. */
export type Params = readonly unknown[];

export type Config = Readonly<Record<string, unknown>>;

export function isObject(value: unknown): value is Config {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// Base58 decoding dominates a small request's cost, and clients ask for the
// same keys over and over; remembering valid ones keeps the hot path cheap.
const validKeys = new Set<string>();
const VALID_KEYS_LIMIT = 100_000;

/** A base58 public key param, rejected with Agave's `ParsePubkeyError` debug names. */
export function pubkeyParam(params: Params, index: number): string {
  const value = params[index];
  if (typeof value === "string" && validKeys.has(value)) return value;
  if (value === undefined) throw badParams("invalid length 0, expected a public key");
  if (typeof value !== "string") throw badParams(`invalid type: ${typeName(value)}, expected a string`);
  if (value.length > 44) throw invalidParams("Invalid param: WrongSize");
  let length: number;
  try {
    length = addressToBytes(value).length;
  } catch {
    throw invalidParams("Invalid param: Invalid");
  }
  if (length !== 32) throw invalidParams("Invalid param: WrongSize");
  if (validKeys.size >= VALID_KEYS_LIMIT) validKeys.clear();
  validKeys.add(value);
  return value;
}

/** The optional trailing config object; `null` is treated as absent, as serde does for `Option`. */
export function configParam(params: Params, index: number): Config {
  const value = params[index];
  if (value === undefined || value === null) return {};
  if (!isObject(value)) throw badParams(`invalid type: ${typeName(value)}, expected a config object`);
  return value;
}

export function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "sequence";
  if (typeof value === "object") return "map";
  if (typeof value === "string") return `string ${JSON.stringify(value)}`;
  if (typeof value === "number") {
    return Number.isInteger(value) ? `integer \`${value}\`` : `floating point \`${value}\``;
  }
  return typeof value;
}

function variant<T extends string>(value: unknown, allowed: readonly T[]): T {
  if (typeof value === "string" && (allowed as readonly string[]).includes(value)) return value as T;
  const expected = allowed.map((v) => `\`${v}\``).join(", ");
  throw badParams(`unknown variant \`${String(value)}\`, expected one of ${expected}`);
}

const COMMITMENTS = ["processed", "confirmed", "finalized", "recent", "single", "singleGossip", "root", "max"] as const;
const LEGACY_COMMITMENT: Record<string, Commitment> = {
  recent: "processed",
  single: "confirmed",
  singleGossip: "confirmed",
  root: "finalized",
  max: "finalized",
};

/** Agave defaults to `finalized` when no commitment is given. */
export function commitmentOf(config: Config): Commitment {
  if (config.commitment === undefined || config.commitment === null) return "finalized";
  const name = variant(config.commitment, COMMITMENTS);
  return LEGACY_COMMITMENT[name] ?? (name as Commitment);
}

export function optionalUnsigned(config: Config, field: string): number | undefined {
  const value = config[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw badParams(`invalid type: ${typeName(value)}, expected u64 for \`${field}\``);
  }
  return value;
}

/** Context slot for the config's commitment, enforcing `minContextSlot` like Agave. */
export function contextSlot(ledger: Ledger, config: Config): number {
  const slot = ledger.slotAt(commitmentOf(config));
  const minContextSlot = optionalUnsigned(config, "minContextSlot");
  if (minContextSlot !== undefined && minContextSlot > slot) {
    throw new JsonRpcErrorAnswer(ErrorCode.MinContextSlotNotReached, "Minimum context slot has not been reached", {
      contextSlot: slot,
    });
  }
  return slot;
}
