import { base64 } from "@scure/base";
import type { Address } from "@solana/kit";
import type { Instruction } from "../instructions/instruction.js";

/** An instruction as the upstream proxy writes it in JSON (that member order). */
export interface InstructionJson {
  readonly programId: Address;
  readonly keys: readonly { readonly isSigner: boolean; readonly isWritable: boolean; readonly pubkey: Address }[];
  /** Base64 of the instruction data. */
  readonly data: string;
}

export const instructionJson = (instruction: Instruction): InstructionJson => ({
  programId: instruction.programId,
  keys: instruction.accounts.map((meta) => ({
    isSigner: meta.signer,
    isWritable: meta.writable,
    pubkey: meta.address,
  })),
  data: base64.encode(instruction.data),
});
