import type { Context } from "hono";
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

/** TLD-less `label` or `sub.label` from the path, trimmed and lowercased as upstream. */
export function domainParam(c: Context): string {
  const name = normalizeName(c.req.param("domain") ?? "");
  parseLabels(name);
  return name;
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
