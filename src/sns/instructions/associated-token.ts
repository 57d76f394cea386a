import type { Address } from "@solana/kit";
import { ASSOCIATED_TOKEN_PROGRAM_ID, SYSTEM_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../constants.js";
import { type Instruction, readonlyAccount, writableAccount, writableSigner } from "./instruction.js";

/** Associated token program instruction 1: create the account unless it already exists. */
const CREATE_IDEMPOTENT = Uint8Array.of(1);

/** Creates `account`, the classic-token associated account of (`mint`, `owner`), paid by `payer`; a no-op when it exists. */
export function createAssociatedTokenIdempotent(
  payer: Address,
  account: Address,
  owner: Address,
  mint: Address,
): Instruction {
  return {
    programId: ASSOCIATED_TOKEN_PROGRAM_ID,
    accounts: [
      writableSigner(payer),
      writableAccount(account),
      readonlyAccount(owner),
      readonlyAccount(mint),
      readonlyAccount(SYSTEM_PROGRAM_ID),
      readonlyAccount(TOKEN_PROGRAM_ID),
    ],
    data: CREATE_IDEMPOTENT,
  };
}
