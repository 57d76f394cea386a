import type { Address } from "@solana/kit";
import type { Instruction } from "../instructions/instruction.js";

export interface LegacyMessageHeader {
  readonly numSignerAccounts: number;
  readonly numReadonlySignerAccounts: number;
  readonly numReadonlyNonSignerAccounts: number;
}

export interface CompiledLegacyInstruction {
  readonly programAddressIndex: number;
  readonly accountIndices: number[];
  readonly data: Uint8Array;
}

/** A legacy message before its wire encoding: every account once, in the order signatures and indices refer to. */
export interface CompiledLegacyMessage {
  readonly header: LegacyMessageHeader;
  readonly staticAccounts: Address[];
  readonly lifetimeToken: string;
  readonly instructions: CompiledLegacyInstruction[];
}

interface Flags {
  signer: boolean;
  writable: boolean;
}

/*
 * Accounts are ordered exactly as web3.js 1.x `Transaction.compileMessage`
 * orders them, so a wallet given our bytes gets the transaction the official
 * SDK's users get: signers first, then writable ones, then by base58 text
 * under the "en" collation web3.js sorts with (`localeCompare`), and the fee
 * payer moved to the front as a writable signer.
 */
const collator = new Intl.Collator("en", {
  usage: "sort",
  sensitivity: "variant",
  caseFirst: "lower",
  numeric: false,
  ignorePunctuation: false,
});

function compareAccounts([a, x]: [Address, Flags], [b, y]: [Address, Flags]): number {
  if (x.signer !== y.signer) return x.signer ? -1 : 1;
  if (x.writable !== y.writable) return x.writable ? -1 : 1;
  return collator.compare(a, b);
}

/** Compiles `instructions` paid by `feePayer` under `blockhash` (web3.js 1.x account order). */
export function compileLegacyMessage(
  feePayer: Address,
  instructions: readonly Instruction[],
  blockhash: string,
): CompiledLegacyMessage {
  const flags = new Map<Address, Flags>();
  const merge = (address: Address, signer: boolean, writable: boolean) => {
    const held = flags.get(address);
    if (held) {
      held.signer ||= signer;
      held.writable ||= writable;
    } else flags.set(address, { signer, writable });
  };
  for (const instruction of instructions)
    for (const meta of instruction.accounts) merge(meta.address, meta.signer, meta.writable);
  for (const instruction of instructions) merge(instruction.programId, false, false);

  const ordered = [...flags].sort(compareAccounts);
  const payerAt = ordered.findIndex(([address]) => address === feePayer);
  if (payerAt !== -1) ordered.splice(payerAt, 1);
  ordered.unshift([feePayer, { signer: true, writable: true }]);

  let numSignerAccounts = 0;
  let numReadonlySignerAccounts = 0;
  let numReadonlyNonSignerAccounts = 0;
  for (const [, { signer, writable }] of ordered) {
    if (signer) numSignerAccounts++;
    if (signer && !writable) numReadonlySignerAccounts++;
    if (!signer && !writable) numReadonlyNonSignerAccounts++;
  }
  const staticAccounts = ordered.map(([address]) => address);
  const indexOf = new Map(staticAccounts.map((address, index) => [address, index]));
  return {
    header: { numSignerAccounts, numReadonlySignerAccounts, numReadonlyNonSignerAccounts },
    staticAccounts,
    lifetimeToken: blockhash,
    instructions: instructions.map((instruction) => ({
      programAddressIndex: indexOf.get(instruction.programId)!,
      accountIndices: instruction.accounts.map((meta) => indexOf.get(meta.address)!),
      data: instruction.data,
    })),
  };
}
