import type { Address } from "@solana/kit";
import { addressToBytes } from "../bytes.js";
import { NAME_PROGRAM_ID } from "../constants.js";
import { concatBytes, u8 } from "./borsh.js";
import { type Instruction, readonlySigner, writableAccount } from "./instruction.js";

/**
 * The name program's "transfer" of `nameAccount` from `currentOwner` (who signs) to `newOwner`: data
 * `u8 2 | newOwner (32 bytes)`, keys the account (writable) and its owner (signer), as the SDK's
 * `transferInstruction` builds it without a class or a parent.
 */
export function transferNameInstruction(nameAccount: Address, newOwner: Address, currentOwner: Address): Instruction {
  return {
    programId: NAME_PROGRAM_ID,
    accounts: [writableAccount(nameAccount), readonlySigner(currentOwner)],
    data: concatBytes(u8(2), addressToBytes(newOwner)),
  };
}
