import { z } from "@hono/zod-openapi";
import type { Address } from "@solana/kit";
import { tryDecodePublicKey } from "../../sns/bytes.js";
import { type FullDomain, normalizeName, parseFullDomain, parseLabels } from "../../sns/domain.js";
import { RecordTypeByName, type RecordType } from "../../sns/record-types.js";
import { InvalidInputError } from "../errors.js";

/**
 * The schemas that validate path and query input, and that `/openapi.json`
 * is generated from. A failure carries the typed error the error table maps
 * (`rejection`), so a schema answers exactly what the hand-written checks did.
 */

/** Most records one `/records-v2` request may name, as upstream. */
export const MAX_BATCH_RECORDS = 100;
/** Most wallets one batch request may name, as upstream. */
export const MAX_BATCH_OWNERS = 100;

type Ctx = z.core.$RefinementCtx;

/** Records `error` as the reason this input is refused; `rejection` gives it back. */
function reject(ctx: Ctx, error: Error): typeof z.NEVER {
  ctx.addIssue({ code: "custom", message: error.message, params: { rejection: error } });
  return z.NEVER;
}

/** The typed error behind the first issue of a failed parse (a plain failure is bad input). */
export function rejection(error: z.ZodError): Error {
  const first = error.issues[0];
  const carried: unknown = first?.code === "custom" ? first.params?.["rejection"] : undefined;
  return carried instanceof Error ? carried : new InvalidInputError(first?.message ?? "invalid input");
}

const PUBKEY_PATTERN = "^[1-9A-HJ-NP-Za-km-z]{32,44}$";

/**
 * A path parameter's check as a plain function: the value the schema's
 * parse gives, or a throw of the very error its failed parse carries. The
 * schema stays the definition (and the document); this skips the parse
 * machinery on every request. `test/http/plain-checks.test.ts` holds each to its schema.
 */
export type PlainCheck = (raw: string) => unknown;
const plainChecks = new WeakMap<z.ZodType, PlainCheck>();

/** The plain check registered for `schema`, if any. */
export const plainCheckOf = (schema: z.ZodType): PlainCheck | undefined => plainChecks.get(schema);

function withPlainCheck<S extends z.ZodType>(schema: S, check: PlainCheck): S {
  plainChecks.set(schema, check);
  return schema;
}

/** A full domain for `/resolve`: trimmed, lowercased, suffix checked before labels (the spec's order). */
export const fullDomainParam = withPlainCheck(
  z
    .string()
    .transform((raw, ctx): FullDomain => {
      try {
        return parseFullDomain(raw);
      } catch (error) {
        return reject(ctx, error as Error);
      }
    })
    .openapi({
      description:
        "A `.sns` or `.sol` domain: `label.sns` or `sub.label.sns`; trimmed and lowercased. " +
        "The suffix is checked first (`Unsupported TLD`), then the labels (`Invalid input`).",
      example: "bonfida.sns",
    }),
  parseFullDomain,
);

/** TLD-less `label` or `sub.label` (or only `label` when `labels` is `[1]`), trimmed and lowercased. */
export const tldLessName = (labels: readonly number[]) =>
  z.string().transform((raw, ctx) => {
    const name = normalizeName(raw);
    try {
      parseLabels(name, labels);
    } catch (error) {
      return reject(ctx, error as Error);
    }
    return name;
  });

const checkTldLessName =
  (labels: readonly number[]): PlainCheck =>
  (raw) => {
    const name = normalizeName(raw);
    parseLabels(name, labels);
    return name;
  };

export const domainNameParam = withPlainCheck(
  tldLessName([1, 2]).openapi({
    description: "A TLD-less name: `label` or `sub.label`; trimmed and lowercased.",
    example: "bonfida",
  }),
  checkTldLessName([1, 2]),
);

export const parentNameParam = withPlainCheck(
  tldLessName([1]).openapi({
    description: "A TLD-less top-level name (one label); trimmed and lowercased.",
    example: "bonfida",
  }),
  checkTldLessName([1]),
);

// Exact, case-sensitive enum values: `SOL`, `url`, `INJ`; not `sol` or `Injective`.
const recordType = z.enum(RecordTypeByName);

export const recordTypeParam = recordType.openapi({
  description: "A record type, exact and case-sensitive (the record types route lists them).",
  example: "SOL",
});

/**
 * Comma-separated record types, each trimmed, duplicates kept. Given more
 * than once it is refused, as upstream's validator sees an array where it
 * expects a string.
 */
export const recordsQueryParam = z
  .string()
  .transform((value): RecordType[] => value.split(",").map((item) => item.trim()) as RecordType[])
  .pipe(z.array(recordType).min(1).max(MAX_BATCH_RECORDS))
  .openapi({
    type: "string",
    description: `1 to ${MAX_BATCH_RECORDS} comma-separated record types, each trimmed, duplicates kept; given once.`,
    example: "SOL,url,email",
  });

/** A base58 public key, not trimmed (as web3.js `new PublicKey`): exactly 32 bytes. */
export const pubkeyParam = withPlainCheck(
  z
    .string()
    .refine(tryDecodePublicKey, "not a public key")
    .transform((text) => text as Address)
    .openapi({ description: "A base58 public key (32 bytes), not trimmed.", pattern: PUBKEY_PATTERN }),
  (raw) => {
    if (!tryDecodePublicKey(raw)) throw new InvalidInputError("not a public key");
    return raw as Address;
  },
);

/** Comma-separated public keys, each trimmed, 1 to 100 of them, duplicates kept. */
export const pubkeysParam = z
  .string()
  .transform((text, ctx) => {
    const items = text.split(",").map((item) => item.trim());
    if (items.length > MAX_BATCH_OWNERS || items.some((item) => !tryDecodePublicKey(item))) {
      return reject(ctx, new InvalidInputError(`must list 1 to ${MAX_BATCH_OWNERS} public keys`));
    }
    return items as Address[];
  })
  .openapi({
    type: "string",
    description: `1 to ${MAX_BATCH_OWNERS} comma-separated base58 public keys, each trimmed, duplicates kept.`,
  });

/**
 * The `rpc` query parameter. It is listed with each RPC-backed route's query
 * but checked only when the route first asks for its endpoint, after the path
 * (see `frame/endpoint.ts`), as upstream does.
 */
export const rpcQueryParam = z
  .string()
  .max(2048)
  .transform((value) => value.trim() || undefined)
  .optional()
  .openapi({
    description:
      "Solana JSON-RPC endpoint for this request only, instead of the configured `RPC_URL`. " +
      "By default an `https:` URL of a public host (see docs/security.md); " +
      "empty means not given. Checked after the path: a refused override is `400 Invalid input`.",
    example: "https://api.mainnet-beta.solana.com",
  });

/**
 * `trace`: read by the frame on every route (frame/frame.ts), never by a
 * route; documented here. Any other value than `1` is ignored.
 */
export const traceQueryParam = z
  .literal("1")
  .optional()
  .openapi({
    description:
      "`1`: the answer also carries `trace` (how it was decided: validation, endpoint hosts, cache outcome, " +
      "account reads, resolution steps, RPC posts and budget), is `no-store` and kept by no cache. Any other " +
      "value is ignored. See docs/routes.md, Tracing an answer.",
    example: "1",
  });

/*
 * Query members of `/register` and `/create-subdomain`, as upstream's zod
 * schemas read them. None has a plain check: a query member can be absent.
 */

/** A base58 public key in the query, not trimmed: exactly 32 bytes (an empty value is refused). */
export const pubkeyQueryParam = z
  .string()
  .refine(tryDecodePublicKey, "not a public key")
  .transform((text) => text as Address)
  .openapi({ description: "A base58 public key (32 bytes), not trimmed.", pattern: PUBKEY_PATTERN });

/** `z.coerce.number()`: `space=` is 0, `1e3` is 1000, `0x10` is 16, ` 1 ` is 1; then an integer in range. */
export const spaceQueryParam = (max: number) =>
  z.coerce
    .number()
    .int()
    .min(0)
    .max(max)
    .openapi({
      type: "integer",
      // `z.coerce` accepts anything, so the generator would call it optional; a missing value is refused.
      param: { required: true },
      description: `Bytes of data the name account holds after its header, 0 to ${max}. Read as a JavaScript number (\`1e3\`, \`0x10\` and an empty value, 0, are accepted).`,
      example: 1000,
    });

/** `true` or `false`, exactly; absent means false. */
export const serializeQueryParam = z
  .enum(["true", "false"])
  .optional()
  .transform((value) => value === "true")
  .openapi({
    type: "string",
    enum: ["true", "false"],
    description: "`true`: answer the base64 of the unsigned legacy transaction instead of the instruction list.",
  });
