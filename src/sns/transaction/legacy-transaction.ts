import type { Address } from "@solana/kit";
import type { Instruction } from "../instructions/instruction.js";
import { compileLegacyMessage } from "./legacy-message.js";

type Kit = typeof import("@solana/kit");

interface Encoders {
  readonly message: ReturnType<Kit["getCompiledTransactionMessageEncoder"]>;
  readonly transaction: ReturnType<Kit["getTransactionEncoder"]>;
}

// Kit's wire encoders are loaded on first use: loading all of kit costs
// ~0.1 s and several MB at start-up, for the one route option that needs it.
let encoders: Promise<Encoders> | undefined;

function loadEncoders(): Promise<Encoders> {
  encoders ??= import("@solana/kit").then(
    (kit) => ({ message: kit.getCompiledTransactionMessageEncoder(), transaction: kit.getTransactionEncoder() }),
    (error: unknown) => {
      encoders = undefined;
      throw error;
    },
  );
  return encoders;
}

/**
 * The unsigned legacy transaction of `instructions`, paid by `feePayer`
 * under `blockhash`, in wire format: the signature count, a zeroed 64-byte
 * slot per required signature, then the message.
 */
export async function unsignedLegacyTransaction(
  feePayer: Address,
  instructions: readonly Instruction[],
  blockhash: string,
): Promise<Uint8Array> {
  const compiled = compileLegacyMessage(feePayer, instructions, blockhash);
  const { message, transaction } = await loadEncoders();
  const messageBytes = message.encode({ version: "legacy", ...compiled } as Parameters<Encoders["message"]["encode"]>[0]);
  const signers = compiled.staticAccounts.slice(0, compiled.header.numSignerAccounts);
  const signatures = Object.fromEntries(signers.map((address) => [address, null]));
  return transaction.encode({ messageBytes, signatures } as Parameters<Encoders["transaction"]["encode"]>[0]) as Uint8Array;
}
