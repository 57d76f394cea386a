import type { Address } from "@solana/kit";
import type { TransactionContextReader } from "../chain.js";
import { SnsError } from "../errors.js";
import { createSubdomainInstructions, planSubdomain } from "../instructions/create-subdomain.js";
import type { Instruction } from "../instructions/instruction.js";
import { decodeNameRegistryHeader, headerOwnerAddress } from "../layouts/name-registry.js";

/** Instructions to sign, and the blockhash to sign them under when one was asked for. */
export interface TransactionDraft {
  readonly instructions: Instruction[];
  readonly blockhash?: string;
}

/** Subdomains created through the gateway allocate no data, as upstream's route does. */
const SUBDOMAIN_SPACE = 0;

/**
 * The instructions creating `sub.parent` (canonical, no TLD) for `owner`, who
 * pays. Everything it reads — the parent and the reverse account, the rent
 * minimum and, when `withBlockhash`, a blockhash — is asked for in one turn,
 * so the RPC layer sends it as one batch: one round trip.
 * @throws SnsError DOMAIN_NOT_FOUND when the parent does not exist.
 */
export async function draftCreateSubdomain(
  reader: TransactionContextReader,
  name: string,
  owner: Address,
  withBlockhash: boolean,
): Promise<TransactionDraft> {
  const plan = planSubdomain(name, SUBDOMAIN_SPACE);
  const [[parent, reverse], lamports, latest] = await Promise.all([
    reader.getAccounts([plan.parent, plan.reverse]),
    reader.getMinimumBalanceForRentExemption(plan.rentBytes),
    withBlockhash ? reader.getLatestBlockhash() : undefined,
  ]);
  if (!parent) throw new SnsError("DOMAIN_NOT_FOUND", "the parent domain does not exist");
  // The header's owner signs, even for a tokenized parent (the tokenizer's record): the program checks that key.
  const parentOwner = headerOwnerAddress(decodeNameRegistryHeader(parent.data));
  const instructions = createSubdomainInstructions(
    plan,
    { lamports, parentOwner, reverseExists: reverse !== null },
    owner,
  );
  return latest ? { instructions, blockhash: latest.blockhash } : { instructions };
}
