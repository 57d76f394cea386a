import type { Context } from "hono";
import { z } from "zod";
import { InvalidInputError } from "./error-table.js";

const rpcParam = z
  .string()
  .max(2048)
  .transform((value) => value.trim() || undefined);

/**
 * The `rpc` query parameter: an endpoint override for this request only.
 * Absent or empty means "use RPC_URL". Its URL policy is applied when the
 * endpoint is selected, after path validation, as upstream does.
 */
export function rpcOverride(c: Context): string | undefined {
  const raw = c.req.query("rpc");
  if (raw === undefined) return undefined;
  const parsed = rpcParam.safeParse(raw);
  if (!parsed.success) throw new InvalidInputError("rpc parameter too long");
  return parsed.data;
}

/** Whether a request named an override at all (`rpc=%20` counts, as upstream). */
export const hasRpcParam = (c: Context): boolean => (c.req.query("rpc") ?? "") !== "";
