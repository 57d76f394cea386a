import { z } from "@hono/zod-openapi";

/** Every body this service writes, as schemas: `{ s: "ok", result }` or `{ s: "error", result: message }`. */
export const okEnvelope = (result: z.ZodType) => z.object({ s: z.literal("ok"), result }).strict();

export const errorEnvelope = (messages: readonly [string, ...string[]]) =>
  z.object({ s: z.literal("error"), result: z.enum(messages) }).strict();

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
