import type { Address } from "@solana/kit";
import { base64 } from "@scure/base";
import type { Instruction } from "../instructions/instruction.js";
import { type InstructionJson, instructionJson } from "./instruction-json.js";
import { unsignedLegacyTransaction } from "./legacy-transaction.js";

/**
 * What the write routes answer: the instruction list (upstream's JSON shape)
 * or, given a blockhash, the base64 of the unsigned legacy transaction paid by `feePayer`.
 */
export function transactionAnswer(
  feePayer: Address,
  instructions: readonly Instruction[],
  blockhash: string | undefined,
): InstructionJson[] | string {
  if (blockhash === undefined) return instructions.map(instructionJson);
  return base64.encode(unsignedLegacyTransaction(feePayer, instructions, blockhash));
}
