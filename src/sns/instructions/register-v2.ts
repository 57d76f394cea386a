import type { Address } from "@solana/kit";
import { addressToBytes } from "../bytes.js";
import {
  NAME_PROGRAM_ID,
  REGISTER_PROGRAM_ID,
  REVERSE_LOOKUP_CLASS,
  SNS_ROOT_DOMAIN,
  SYSTEM_PROGRAM_ID,
  SYSVAR_RENT_ID,
  TOKEN_PROGRAM_ID,
} from "../constants.js";
import { deriveAssociatedTokenAccount, deriveDomainKey, deriveReverseKey, findProgramAddress } from "../derive.js";
import { SnsError } from "../errors.js";
import { createAssociatedTokenIdempotent } from "./associated-token.js";
import { borshOption, borshString, concatBytes, u16, u32, u8 } from "./borsh.js";
import { type Instruction, readonlyAccount, writableAccount, writableSigner } from "./instruction.js";
import { paymentMint } from "./payment-mints.js";
import { referrerIndex } from "./referrers.js";

/** Registrar instruction 20: register a top-level name, priced through a Pyth pull feed. */
const CREATE_SPLIT_V2 = 20;

/** Most bytes a registration may allocate after the name's header, as the registrar allows. */
export const MAX_DOMAIN_SPACE = 10_000;

export interface Registration {
  /** A top-level label, without TLD, already canonical (no `.`, trimmed, lower case). */
  readonly label: string;
  /** Bytes allocated after the header, 0 to MAX_DOMAIN_SPACE. */
  readonly space: number;
  /** Pays, signs, and owns the new name. */
  readonly buyer: Address;
  /** A payment mint (see payment-mints.ts). */
  readonly mint: Address;
  /** A key of the referrer table gets its share; any other key is ignored. */
  readonly referrer?: Address;
}

/**
 * The instructions that register `label`.sns for `buyer`, paid from the
 * buyer's associated token account of `mint`: with a known referrer, first
 * the idempotent creation of the referrer's token account (always, so the
 * list does not depend on chain state), then the registration.
 * @throws SnsError INVALID_INPUT for a malformed label or a mint without a price feed.
 */
export function registerInstructions(registration: Registration): Instruction[] {
  const { label, space, buyer, mint, referrer } = registration;
  if (label.length === 0 || label.includes(".") || label.trim().toLowerCase() !== label) {
    throw new SnsError("INVALID_INPUT", "the domain name is malformed");
  }
  if (!Number.isInteger(space) || space < 0 || space > MAX_DOMAIN_SPACE)
    throw new SnsError("INVALID_INPUT", "space out of range");
  const payment = paymentMint(mint);
  if (!payment) throw new SnsError("INVALID_INPUT", "no Pyth feed for this payment mint");

  const nameAccount = deriveDomainKey(label);
  const reverse = deriveReverseKey(nameAccount);
  const derivedState = findProgramAddress([addressToBytes(nameAccount)], REGISTER_PROGRAM_ID);
  const referrerIdx = referrerIndex(referrer);
  const referrerAccount = referrerIdx === undefined ? undefined : deriveAssociatedTokenAccount(referrer!, mint);

  const instructions: Instruction[] = [];
  if (referrerAccount) instructions.push(createAssociatedTokenIdempotent(buyer, referrerAccount, referrer!, mint));
  instructions.push({
    programId: REGISTER_PROGRAM_ID,
    accounts: [
      readonlyAccount(NAME_PROGRAM_ID),
      readonlyAccount(SNS_ROOT_DOMAIN),
      writableAccount(nameAccount),
      writableAccount(reverse),
      readonlyAccount(SYSTEM_PROGRAM_ID),
      readonlyAccount(REVERSE_LOOKUP_CLASS),
      writableSigner(buyer),
      // The new name's owner, then the fee payer: the buyer both times.
      readonlyAccount(buyer),
      writableSigner(buyer),
      writableAccount(deriveAssociatedTokenAccount(buyer, mint)),
      readonlyAccount(payment.feedAccount),
      writableAccount(payment.vault),
      readonlyAccount(TOKEN_PROGRAM_ID),
      readonlyAccount(SYSVAR_RENT_ID),
      readonlyAccount(derivedState),
      ...(referrerAccount ? [writableAccount(referrerAccount)] : []),
    ],
    data: concatBytes(
      u8(CREATE_SPLIT_V2),
      borshString(label),
      u32(space),
      borshOption(referrerIdx === undefined ? undefined : u16(referrerIdx)),
    ),
  });
  return instructions;
}
