import type { Address } from "@solana/kit";
import type { Context } from "hono";
import { tryDecodePublicKey } from "../sns/bytes.js";
import { z } from "zod";
import { normalizeName, parseLabels } from "../sns/domain.js";
import { Record, type RecordType } from "../sns/record-types.js";
import { InvalidInputError } from "./error-table.js";

/** Most records one `/records-v2` request may name, as upstream. */
export const MAX_BATCH_RECORDS = 100;

// Exact, case-sensitive enum values: `SOL`, `url`, `INJ`; not `sol` or `Injective`.
const recordType = z.enum(Record);

const recordList = z
  .string()
  .transform((value) => value.split(",").map((item) => item.trim()))
  .pipe(z.array(recordType).min(1).max(MAX_BATCH_RECORDS));

/** Most wallets one batch request may name, as upstream. */
export const MAX_BATCH_OWNERS = 100;

/**
 * TLD-less `label` or `sub.label` from the path, trimmed and lowercased as
 * upstream; `labels` narrows the label counts a route accepts.
 */
export function domainParam(c: Context, param = "domain", labels: readonly number[] = [1, 2]): string {
  const name = normalizeName(c.req.param(param) ?? "");
  parseLabels(name, labels);
  return name;
}

/** A base58 public key, not trimmed (as web3.js `new PublicKey`): exactly 32 bytes. */
export function pubkeyParam(c: Context, param: string): Address {
  const text = c.req.param(param) ?? "";
  if (!tryDecodePublicKey(text)) throw new InvalidInputError(`${param} is not a public key`);
  return text as Address;
}

/** Comma-separated public keys, each trimmed, 1 to 100 of them, duplicates kept. */
export function pubkeysParam(c: Context, param: string): Address[] {
  const items = (c.req.param(param) ?? "").split(",").map((item) => item.trim());
  if (items.length > MAX_BATCH_OWNERS || items.some((item) => !tryDecodePublicKey(item))) {
    throw new InvalidInputError(`${param} must list 1 to ${MAX_BATCH_OWNERS} public keys`);
  }
  return items as Address[];
}

export function recordParam(c: Context): RecordType {
  const parsed = recordType.safeParse(c.req.param("record") ?? "");
  if (!parsed.success) throw new InvalidInputError("unknown record type");
  return parsed.data;
}

/**
 * The required `records` query: comma-separated record types, each trimmed,
 * duplicates kept. Given more than once it is refused, as upstream's
 * validator sees an array where it expects a string.
 */
export function recordsQuery(c: Context): RecordType[] {
  const values = c.req.queries("records") ?? [];
  const parsed = values.length === 1 ? recordList.safeParse(values[0]) : undefined;
  if (!parsed?.success) throw new InvalidInputError("records must list 1 to 100 record types");
  return parsed.data;
}
