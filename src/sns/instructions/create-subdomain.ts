import type { Address } from "@solana/kit";
import {
  NAME_PROGRAM_ID,
  NAME_REGISTRY_HEADER_LEN,
  REGISTER_PROGRAM_ID,
  REVERSE_LOOKUP_CLASS,
  SNS_ROOT_DOMAIN,
  SUBDOMAIN_PREFIX,
  SYSTEM_PROGRAM_ID,
  SYSVAR_RENT_ID,
} from "../constants.js";
import { deriveDomainKey, deriveReverseKey, hashName } from "../derive.js";
import { SnsError } from "../errors.js";
import { borshString, concatBytes, u32, u64, u8 } from "./borsh.js";
import { type Instruction, readonlyAccount, readonlySigner, writableAccount, writableSigner } from "./instruction.js";

/** Name-service instruction 0: create a name account. */
const NAME_CREATE = 0;
/** Registrar instruction 12: create a reverse-lookup account. */
const CREATE_REVERSE = 12;
const ZERO_KEY = SYSTEM_PROGRAM_ID;

/** The accounts a subdomain's creation derives, and those it must read first. */
export interface SubdomainPlan {
  /** Own label, prefixed with `\0` as the name program hashes subdomains. */
  readonly prefixedLabel: string;
  readonly parent: Address;
  readonly subdomain: Address;
  readonly reverse: Address;
  /** Bytes to fund rent for: the header and `space`. */
  readonly rentBytes: number;
  readonly space: number;
}

/**
 * Derives the keys of `sub.parent` (two canonical labels, no TLD).
 * @throws SnsError INVALID_INPUT unless the name is two non-empty labels.
 */
export function planSubdomain(name: string, space: number): SubdomainPlan {
  const labels = name.split(".");
  if (labels.length !== 2 || labels.some((label) => label.length === 0)) {
    throw new SnsError("INVALID_INPUT", "a subdomain has two non-empty labels");
  }
  const parent = deriveDomainKey(labels[1]!);
  const subdomain = deriveDomainKey(name);
  return {
    prefixedLabel: SUBDOMAIN_PREFIX + labels[0]!,
    parent,
    subdomain,
    reverse: deriveReverseKey(subdomain, parent),
    rentBytes: space + NAME_REGISTRY_HEADER_LEN,
    space,
  };
}

/** What the chain said, read for a plan. */
export interface SubdomainChainState {
  /** Rent-exempt minimum of `rentBytes`. */
  readonly lamports: bigint;
  /** The parent's registry owner (the header's, even for a tokenized parent): it must sign. */
  readonly parentOwner: Address;
  /** Whether the reverse account exists (with any data, even none). */
  readonly reverseExists: boolean;
}

/**
 * Creates the subdomain account owned by `owner` and paid by `payer`, then,
 * unless it exists, the subdomain's reverse-lookup account.
 */
export function createSubdomainInstructions(
  plan: SubdomainPlan,
  state: SubdomainChainState,
  owner: Address,
  payer: Address = owner,
): Instruction[] {
  const instructions: Instruction[] = [
    {
      programId: NAME_PROGRAM_ID,
      accounts: [
        readonlyAccount(SYSTEM_PROGRAM_ID),
        writableSigner(payer),
        writableAccount(plan.subdomain),
        readonlyAccount(owner),
        // No class: the zero key.
        readonlyAccount(ZERO_KEY),
        readonlyAccount(plan.parent),
        readonlySigner(state.parentOwner),
      ],
      data: concatBytes(u8(NAME_CREATE), u32(32), hashName(plan.prefixedLabel), u64(state.lamports), u32(plan.space)),
    },
  ];
  if (!state.reverseExists) {
    instructions.push({
      programId: REGISTER_PROGRAM_ID,
      accounts: [
        readonlyAccount(NAME_PROGRAM_ID),
        readonlyAccount(SNS_ROOT_DOMAIN),
        writableAccount(plan.reverse),
        readonlyAccount(SYSTEM_PROGRAM_ID),
        readonlyAccount(REVERSE_LOOKUP_CLASS),
        writableSigner(payer),
        readonlyAccount(SYSVAR_RENT_ID),
        writableAccount(plan.parent),
        writableSigner(owner),
      ],
      data: concatBytes(u8(CREATE_REVERSE), borshString(plan.prefixedLabel)),
    });
  }
  return instructions;
}
