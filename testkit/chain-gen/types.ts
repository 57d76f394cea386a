import type { Address } from "@solana/kit";
import { type FixtureAccount, LOCALNET_PDA_PROGRAM, type TokenBalance } from "../../src/localnet/index.js";

// What a generated state is: the branch labels it is built to reach, the PDA-owner policies, and what the
// official SDK does with it under each.

export const BRANCH_LABELS = [
  "domain/missing",
  "domain/short",
  "domain/foreign-program",
  "owner/on-curve",
  "owner/zero",
  "owner/random-bytes",
  "owner/non-canonical",
  "owner/small-order",
  "owner/pda-allowed-program",
  "owner/pda-other-program",
  "owner/pda-no-account",
  "nft/active",
  "nft/active-pda-holder",
  "nft/active-token-2022",
  "nft/active-tied-holders",
  "nft/burned",
  "nft/no-token-accounts",
  "nft/no-mint",
  "nft/mint-not-a-mint",
  "nft/largest-amount-not-1",
  "nft/holder-vanished",
  "nft/holder-short",
  "nft/holder-short-readable",
  "nft/holder-not-token-account",
  "nft/inactive",
  "nft/wrong-tag",
  "nft/short-record",
  "v2/valid",
  "v2/stale",
  "v2/stale-roa-mismatch",
  "v2/wrong-validation",
  "v2/roa-mismatch",
  "v2/content-short",
  "v2/content-long",
  "v2/trailing-bytes",
  "v2/shorter-than-ids",
  "v2/header-short",
  "v2/invalid-validation",
  "v1/valid",
  "v1/trailing-bytes",
  "v1/wrong-signer",
  "v1/corrupted-signature",
  "v1/raw-bytes-message",
  "v1/uppercase-hex-message",
  "v1/wrong-record-key",
  "v1/malleable-s",
  "v1/forged-small-order-owner",
  "v1/non-canonical-r-canonical-hash",
  "v1/non-canonical-r-raw-hash",
  "v1/short-payload",
] as const;
export type BranchLabel = (typeof BRANCH_LABELS)[number];

/** Registry-owner policies for off-curve owners (the SDK's `allowPda` config, the gateway's `ALLOW_PDA_OWNERS`). */
export const PDA_POLICIES = ["none", "any", "programs"] as const;
export type PdaPolicyName = (typeof PDA_POLICIES)[number];
/** The one program on the `programs` policy's allow-list. */
export const ALLOWED_PDA_PROGRAM: Address = LOCALNET_PDA_PROGRAM;

/** Where a resolved key came from (SNS-IP 5 precedence). */
export type KeySource = "nft-holder" | "v2" | "v1" | "owner";

/** SDK error `type`s resolution can raise, plus `Generic` for exceptions without one. */
export type SdkErrorClass =
  | "DomainDoesNotExist"
  | "RecordMalformed"
  | "WrongValidation"
  | "InvalidRoA"
  | "CouldNotFindNftOwner"
  | "PdaOwnerNotAllowed"
  | "Generic";

export type SdkOutcome =
  | { readonly kind: "key"; readonly key: string; readonly source: KeySource }
  | { readonly kind: "error"; readonly error: SdkErrorClass };

export interface Expectation {
  /** What `resolve(connection, name + ".sol", config)` of the official SDK does. */
  readonly sdk: SdkOutcome;
  /**
   * Set when resolution reaches on-chain data that cannot be decoded with the
   * documented layout; the gateway then answers 422 whatever the SDK does.
   */
  readonly undecodable?: string;
}

export interface LargestAccountsOverride {
  readonly mint: Address;
  readonly balances: readonly TokenBalance[];
}

export interface GeneratedState {
  /** TLD-less, already lowercase and trimmed: `label` or `sub.parent`. */
  readonly name: string;
  readonly label: BranchLabel;
  /** Shape of the name: ascii / unicode / emoji / special, top-level / subdomain, … */
  readonly tags: readonly string[];
  readonly accounts: readonly FixtureAccount[];
  /**
   * `getTokenLargestAccounts` answers that no ledger content can produce (the
   * holder account changed between the two RPC calls); apply with `buildLedger`.
   */
  readonly largestAccounts?: LargestAccountsOverride;
  readonly expected: Readonly<Record<PdaPolicyName, Expectation>>;
}

export interface GenerateOptions {
  /**
   * Keeps names unique across generations sharing a ledger ([a-z0-9]+);
   * defaults to one derived from the rng's seed and how often it generated.
   */
  readonly namespace?: string;
  /** Labels to schedule (default: all). */
  readonly labels?: readonly BranchLabel[];
  /** Share of subdomain names (default 0.3). */
  readonly subdomainShare?: number;
  /**
   * Wallets owners and signers are drawn from (default 48). A small pool keeps
   * generation cheap; a pool as large as the name count gives (nearly) every
   * name its own owner, as on mainnet, so per-owner memos are not flattered.
   * The rng draws the same numbers whatever the pool, so only keys change.
   */
  readonly identityPool?: number;
}
