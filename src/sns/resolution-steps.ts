import type { Address } from "@solana/kit";

/**
 * Where a resolution says how it decided, for a request that asked
 * (`?trace=1`): what each account it reads is, and each step of the
 * precedence in order with its outcome. Optional everywhere: absent, a
 * resolution records nothing and pays one `undefined` check per step.
 * Kept free of I/O and of HTTP: the recorder is the caller's.
 */
export interface ResolutionSteps {
  /** What account `key` is to the resolution of `name` (a domain registry, an NFT record, a V2 SOL record, …). */
  account(key: Address, what: string): void;
  /** One step of the resolution of `name`, and how it ended. */
  step(name: string, what: string, outcome: string): void;
}
