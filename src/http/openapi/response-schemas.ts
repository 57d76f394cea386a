import { z } from "@hono/zod-openapi";

/** Every body this service writes, as schemas: `{ s: "ok", result }` or `{ s: "error", result: message }`. */
const TraceRead = z.object({
  key: z.string(),
  what: z.string().optional().describe("domain registry, NFT record, V2 SOL record, V1 SOL record, SRS record, …"),
  found: z.boolean(),
  owner: z.string().optional().describe("The account's owner program."),
  dataLength: z.number().int().optional(),
  head: z
    .number()
    .int()
    .optional()
    .describe("Only the first this many bytes of the data were read (a bulk request's registry header)."),
  slot: z.number().int().optional().describe("The `context.slot` of the answer it came in."),
  shared: z.literal(true).optional().describe("The read was sent for another request too, and shared."),
});

const TracePost = z.object({
  calls: z.record(z.string(), z.number().int()).describe("JSON-RPC calls of the post, by method."),
  keys: z.number().int().describe("Account keys its getMultipleAccounts calls asked for."),
  shared: z
    .literal(true)
    .optional()
    .describe("Other requests' calls went in it too: `calls` and `keys` count theirs as well."),
  ownCalls: z.number().int().optional().describe("With `shared`: how many of its calls carried this request's reads."),
  attempts: z
    .array(
      z.object({
        endpoint: z.string().describe("The endpoint's host (and port): never its path, query or credentials."),
        ms: z.number(),
        outcome: z.string(),
        kind: z.enum(["hedge", "failover"]).optional(),
      }),
    )
    .describe("Each endpoint it was sent to: the first, then failovers and hedges."),
  ms: z.number().optional(),
  outcome: z.string().optional(),
});

/** What `?trace=1` adds to an envelope (rpc/request-trace.ts); docs/routes.md shows examples. */
export const RequestTraceSchema = z
  .object({
    request: z.object({
      validation: z.string().describe("`accepted`, or `refused: ` and the rule the input broke."),
      endpoints: z
        .object({ list: z.enum(["configured", "override"]), hosts: z.array(z.string()) })
        .optional()
        .describe("The endpoint list the request used, by host; absent when it chose none."),
      cache: z.string().describe("`hit`, `miss`, `coalesced` (resolve routes), or `none`."),
      ageSeconds: z.number().int().optional().describe("Whole seconds since a cached answer was read."),
    }),
    names: z
      .array(
        z.object({
          name: z.string(),
          cache: z.string(),
          ageSeconds: z.number().int().optional(),
          slot: z.number().int().optional(),
        }),
      )
      .optional()
      .describe("Per name resolved: where its answer came from."),
    reads: z.array(TraceRead).describe("The account reads the answer used."),
    decision: z
      .array(z.object({ name: z.string(), step: z.string(), outcome: z.string() }))
      .describe("The resolution steps in order, each with its outcome."),
    rpc: z.object({
      posts: z.array(TracePost),
      budget: z
        .object({ calls: z.number().int(), bytes: z.number().int(), ms: z.number().int() })
        .describe("What the request spent of its budget."),
    }),
    notes: z.array(z.string()).optional(),
    omitted: z
      .record(z.string(), z.unknown())
      .optional()
      .describe("Entries left out of each list past its limit (a bulk request), and the limits."),
  })
  .openapi("RequestTrace", {
    description:
      "Present only with `?trace=1`: how the answer was decided. Never holds a URL beyond its host; such an " +
      "answer is `no-store` and kept by no cache.",
  });

export const okEnvelope = (result: z.ZodType) =>
  z.object({ s: z.literal("ok"), result, trace: RequestTraceSchema.optional() }).strict();

export const errorEnvelope = (messages: readonly [string, ...string[]]) =>
  z.object({ s: z.literal("error"), result: z.enum(messages), trace: RequestTraceSchema.optional() }).strict();

export const PublicKey = z
  .string()
  .regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/)
  .openapi("PublicKey", {
    description: "A base58 public key.",
    example: "Crf8hzfthWGbGbLTVCiqRqV5MVnbpHB1L9KQMd6gsinb",
  });

const RecordV2Header = z
  .object({
    stalenessValidation: z.number().int().describe("0 none, 1 Solana, 2 Ethereum, 3 UnverifiedSolana"),
    rightOfAssociationValidation: z.number().int().describe("0 none, 1 Solana, 2 Ethereum, 3 UnverifiedSolana"),
    contentLength: z.number().int().min(0),
  })
  .strict()
  .openapi("RecordV2Header");

const recordV2Fields = {
  deserialized: z
    .string()
    .optional()
    .describe(
      "The decoded content; absent for `background` records (and, in a batch of records, for undecodable content).",
    ),
  stale: z.boolean().describe("False only when the record's staleness id is the domain's current owner."),
  roa: z.boolean().optional().describe("Right of association verified; present for types with a verifier."),
  record: z
    .object({
      header: RecordV2Header,
      data: z.string().describe("Base64 of the account bytes from offset 104: ids followed by content."),
    })
    .strict(),
};

export const RecordV2 = z.object(recordV2Fields).strict().openapi("RecordV2");

export const RecordV2BatchItem = z
  .object({ type: z.string().describe("The record type asked for."), ...recordV2Fields })
  .strict()
  .openapi("RecordV2BatchItem");

export const WalletDomain = z
  .object({ domain: z.string().describe("TLD-less name"), key: PublicKey })
  .strict()
  .openapi("WalletDomain");

export const PrimaryDomain = z
  .object({
    domain: PublicKey.describe("The primary domain's name account."),
    reverse: z.string().describe("Its TLD-less name (`sub.label` for a subdomain)."),
    stale: z.boolean().describe("True when the wallet no longer owns the domain."),
  })
  .strict()
  .openapi("PrimaryDomain");

export const InstructionJson = z
  .object({
    programId: PublicKey.describe("The program invoked."),
    keys: z
      .array(
        z
          .object({ isSigner: z.boolean(), isWritable: z.boolean(), pubkey: PublicKey })
          .strict()
          .openapi("InstructionAccount"),
      )
      .describe("The accounts, in the program's order; an account named twice is listed twice."),
    data: z.string().describe("Base64 of the instruction data."),
  })
  .strict()
  .openapi("Instruction");

/** `result` of the write routes: the instructions, or with `serialize=true` the unsigned transaction. */
export const TransactionResult = z
  .union([
    z.array(InstructionJson),
    z
      .string()
      .describe(
        "Base64 of the unsigned legacy transaction: zeroed signature slots, fee payer first, a recent blockhash.",
      ),
  ])
  .openapi("TransactionResult");
