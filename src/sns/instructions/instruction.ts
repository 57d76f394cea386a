import type { Address } from "@solana/kit";

/** One account an instruction names, and what the instruction may do with it. */
export interface AccountMeta {
  readonly address: Address;
  readonly signer: boolean;
  readonly writable: boolean;
}

/**
 * A program invocation as builders emit it: accounts in the program's order,
 * duplicates kept (a buyer can be payer, owner and fee payer of one instruction).
 */
export interface Instruction {
  readonly programId: Address;
  readonly accounts: readonly AccountMeta[];
  readonly data: Uint8Array;
}

export const readonlyAccount = (address: Address): AccountMeta => ({ address, signer: false, writable: false });
export const writableAccount = (address: Address): AccountMeta => ({ address, signer: false, writable: true });
export const readonlySigner = (address: Address): AccountMeta => ({ address, signer: true, writable: false });
export const writableSigner = (address: Address): AccountMeta => ({ address, signer: true, writable: true });
