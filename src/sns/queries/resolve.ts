import type { Address } from "@solana/kit";
import { bytesEqual, bytesToAddress } from "../bytes.js";
import type { AccountData, ChainReader } from "../chain.js";
import { NAME_REGISTRY_HEADER_LEN, SOL_TLD } from "../constants.js";
import { isOnCurve, verifyEd25519 } from "../curve.js";
import { type ResolutionKeys, deriveResolutionKeys } from "../derive.js";
import type { FullDomain } from "../domain.js";
import { SnsError } from "../errors.js";
import { decodeNameRegistryOwner } from "../layouts/name-registry.js";
import { NftRecordTag, decodeNftRecordTag } from "../layouts/nft-record.js";
import { decodeRecordV1Sol, recordV1SolMessage } from "../layouts/record-v1-sol.js";
import { Validation, decodeRecordV2 } from "../layouts/record-v2.js";
import type { ResolutionSteps } from "../resolution-steps.js";
import { type PrefetchedHolder, lookupNftHolder } from "./nft-holder.js";

/** Which registry owners that are off the ed25519 curve (PDAs) may be returned. */
export type PdaPolicy =
  | { readonly kind: "none" }
  | { readonly kind: "any" }
  | { readonly kind: "programs"; readonly programIds: ReadonlySet<string> };

export const PDA_NOT_ALLOWED: PdaPolicy = { kind: "none" };

export { type ResolutionKeys, deriveResolutionKeys };

const cutoffReached = () => new SnsError("UNSUPPORTED_TLD", ".sol resolution is paused at the cutoff slot");

/**
 * Legacy `.sol` names resolve through the same name accounts as `.sns` until
 * the chain's finalized slot reaches the cutoff; then they are refused. Gives
 * undefined when the name may go on (every TLD but `.sol`, and `.sol` while
 * the cutoff is known not reached) and throws when it is known reached, so
 * the caller goes on at once; a promise only while a slot is being read.
 */
export function tldGate(chain: ChainReader, domain: FullDomain): Promise<void> | undefined {
  if (domain.tld !== SOL_TLD) return undefined;
  const reached = chain.isSolCutoffReached();
  if (reached === false) return undefined;
  if (reached === true) throw cutoffReached();
  return reached.then((known) => {
    if (known) throw cutoffReached();
  });
}

/**
 * Remembers, per domain, the token account that last held its NFT. A domain
 * seen tokenized is probably still tokenized, so its next resolution asks for
 * the mint's largest holders and that account in the same batch as the rest:
 * one round trip instead of three, with the same answer.
 */
export interface HolderHints {
  get(domainKey: Address): Address | undefined;
  set(domainKey: Address, tokenAccount: Address): void;
  delete(domainKey: Address): void;
  /**
   * A holder found within the operator's reuse window (NFT_HOLDER_TTL_MS).
   * Used only while the same fetch shows the NFT record still active, so an
   * unwrapped domain is seen at once; a transfer, within the window.
   */
  readonly holders?: {
    get(domainKey: Address): Address | undefined;
    set(domainKey: Address, holder: Address): void;
    delete(domainKey: Address): void;
  };
}

/**
 * What resolution reads of each account of its fetch: the domain's registry
 * account (fourth) as its header alone, nothing past it being read
 * (registered domains carry 1 KB or more after it); the rest whole.
 */
const FETCH_HEADS = [0, 0, 0, NAME_REGISTRY_HEADER_LEN];
const FETCH_HEADS_WITH_GUESS = [0, 0, 0, NAME_REGISTRY_HEADER_LEN, 0];

/**
 * SNS-IP 5 precedence for a TLD-less name: active NFT holder, then a valid V2
 * SOL record, then a valid V1 SOL record, then the registry owner. `steps`
 * (a traced request's) is told each step as it is decided.
 */
export async function resolveSnsName(
  chain: ChainReader,
  name: string,
  pda: PdaPolicy = PDA_NOT_ALLOWED,
  hints?: HolderHints,
  steps?: ResolutionSteps,
): Promise<Address> {
  const keys = deriveResolutionKeys(name);
  if (steps) labelAccounts(steps, keys);
  const knownHolder = hints?.holders?.get(keys.domain);
  const guess = knownHolder ? undefined : hints?.get(keys.domain);
  const largest = guess ? chain.getTokenLargestAccounts(keys.mint) : undefined;
  largest?.catch(() => undefined); // only awaited if the domain is still tokenized
  // One fetch, in this order, is everything the precedence can need.
  const fetchKeys = guess
    ? [keys.nftRecord, keys.solV1, keys.solV2, keys.domain, guess]
    : [keys.nftRecord, keys.solV1, keys.solV2, keys.domain];
  const [nftRecord, solV1, solV2, domainAccount, guessedAccount] = await (chain.getAccountHeads
    ? chain.getAccountHeads(fetchKeys, guess ? FETCH_HEADS_WITH_GUESS : FETCH_HEADS)
    : chain.getAccounts(fetchKeys));
  if (!domainAccount) {
    steps?.step(name, "domain registry", "absent");
    throw new SnsError("DOMAIN_NOT_FOUND", `domain ${name} does not exist`);
  }
  const registryOwner = decodeNameRegistryOwner(domainAccount.data);

  const nftTag = nftRecord ? decodeNftRecordTag(nftRecord.data) : undefined;
  if (nftTag === NftRecordTag.ActiveRecord) {
    if (knownHolder) {
      steps?.step(name, "tokenized", `active NFT record; holder ${knownHolder} reused (NFT_HOLDER_TTL_MS): chosen`);
      return knownHolder;
    }
    const prefetched: PrefetchedHolder | undefined =
      largest && guess ? { largest, guess: { address: guess, account: guessedAccount ?? null } } : undefined;
    const { holder, tokenAccount } = await lookupNftHolder(chain, keys.domain, prefetched, keys.mint);
    if (hints && tokenAccount) hints.set(keys.domain, tokenAccount);
    if (steps && tokenAccount) steps.account(tokenAccount, "NFT holder's token account");
    if (!holder) {
      steps?.step(name, "tokenized", "active NFT record, but no account holds the NFT");
      throw new SnsError("NFT_OWNER_NOT_FOUND", `no holder for tokenized ${name}`);
    }
    steps?.step(name, "tokenized", `active NFT record; holder ${holder} (token account ${tokenAccount}): chosen`);
    hints?.holders?.set(keys.domain, holder);
    return holder;
  }
  steps?.step(name, "tokenized", nftRecord ? "no active NFT record (inactive)" : "no active NFT record (absent)");
  if (guess) hints?.delete(keys.domain);
  if (knownHolder) hints?.holders?.delete(keys.domain);

  if (solV2) {
    const target = solRecordV2Target(
      solV2,
      registryOwner,
      steps && ((outcome) => steps.step(name, "V2 SOL record", outcome)),
    );
    if (target) return target;
  } else steps?.step(name, "V2 SOL record", "absent");

  if (solV1) {
    const target = solRecordV1Target(solV1, keys.solV1, registryOwner);
    steps?.step(
      name,
      "V1 SOL record",
      target ? `signature verifies; target ${target}: chosen` : "signature does not verify",
    );
    if (target) return target;
  } else steps?.step(name, "V1 SOL record", "absent");

  return checkOwnerAllowed(
    chain,
    registryOwner,
    pda,
    steps && ((outcome) => steps.step(name, "registry owner", outcome)),
  );
}

/** Tells `steps` what each account a resolution reads is. */
function labelAccounts(steps: ResolutionSteps, keys: ResolutionKeys): void {
  steps.account(keys.domain, "domain registry");
  steps.account(keys.nftRecord, "NFT record");
  steps.account(keys.solV2, "V2 SOL record");
  steps.account(keys.solV1, "V1 SOL record");
}

/** How one step ended, for a traced request (`ResolutionSteps.step` of a known name and step). */
type StepOutcome = (outcome: string) => void;

/** Target of a V2 SOL record, or null when the record is stale (the domain changed hands). */
function solRecordV2Target(account: AccountData, registryOwner: Uint8Array, told?: StepOutcome): Address | null {
  const record = decodeRecordV2(account.data);
  if (record.content.length !== 32) {
    told?.("content is not 32 bytes: malformed");
    throw new SnsError("RECORD_MALFORMED", "SOL record content is not 32 bytes");
  }
  const { stalenessValidation, rightOfAssociationValidation } = record.header;
  if (stalenessValidation !== Validation.Solana || rightOfAssociationValidation !== Validation.Solana) {
    told?.("validations are not both Solana: malformed");
    throw new SnsError("WRONG_VALIDATION", "SOL record validations must both be Solana");
  }
  if (!bytesEqual(record.stalenessId, registryOwner)) {
    told?.("stale: its staleness id is not the registry owner");
    return null;
  }
  if (bytesEqual(record.roaId, record.content)) {
    const target = bytesToAddress(record.content);
    told?.(`signature verifies (right of association is its content); target ${target}: chosen`);
    return target;
  }
  told?.("signature does not verify (right of association does not match its content): malformed");
  throw new SnsError("INVALID_ROA", "SOL record right of association does not match its content");
}

/**
 * Target of a V1 SOL record when its signature is valid. The registry owner
 * signs the ASCII hex of target || record-account-address.
 */
function solRecordV1Target(account: AccountData, recordKey: Address, registryOwner: Uint8Array): Address | null {
  const { target, signature } = decodeRecordV1Sol(account.data);
  return verifyEd25519(signature, recordV1SolMessage(target, recordKey), registryOwner) ? bytesToAddress(target) : null;
}

/**
 * The PDA rule: an owner off the ed25519 curve is returned only as the policy
 * allows. Decided at once (the key, or the error thrown) unless the owner's
 * account must be read: callers return it from an async function, which
 * settles the same way either way, without a promise of its own to adopt.
 */
export function checkOwnerAllowed(
  chain: ChainReader,
  owner: Uint8Array,
  pda: PdaPolicy,
  told?: StepOutcome,
): Address | Promise<Address> {
  const ownerAddress = bytesToAddress(owner);
  const onCurve = isOnCurve(owner);
  if (onCurve || pda.kind === "any") {
    told?.(`${ownerAddress}${onCurve ? "" : " (off curve, PDAs allowed)"}: chosen`);
    return ownerAddress;
  }
  if (pda.kind === "programs") return ownerOfAllowedProgram(chain, ownerAddress, pda.programIds, told);
  told?.(`${ownerAddress} is off curve and not allowed: refused`);
  throw pdaNotAllowed(ownerAddress);
}

async function ownerOfAllowedProgram(
  chain: ChainReader,
  ownerAddress: Address,
  programIds: ReadonlySet<string>,
  told: StepOutcome | undefined,
): Promise<Address> {
  const [account] = await chain.getAccounts([ownerAddress]);
  if (account && programIds.has(account.owner)) {
    told?.(`${ownerAddress} (off curve, owned by allowed program ${account.owner}): chosen`);
    return ownerAddress;
  }
  told?.(`${ownerAddress} is off curve and not allowed: refused`);
  throw pdaNotAllowed(ownerAddress);
}

const pdaNotAllowed = (ownerAddress: Address) =>
  new SnsError("PDA_OWNER_NOT_ALLOWED", `owner ${ownerAddress} is off curve`);

/**
 * `/safe-resolve` contract while SRS-backed `.sol` resolution is on: the SRS
 * and SNS registries must name the same target (`name` is the full domain).
 */
export function assertSameTarget(name: string, sns: Address, srs: Address): Address {
  if (sns !== srs) throw new SnsError("SRS_MISMATCH", `SRS resolved ${name} to ${srs}, but SNS resolved it to ${sns}`);
  return sns;
}
