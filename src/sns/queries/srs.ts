import type { Address } from "@solana/kit";
import { addressToBytes, bytesEqual } from "../bytes.js";
import type { AccountData, ChainReader, TokenAmountEntry } from "../chain.js";
import { TOKEN_2022_PROGRAM_ID } from "../constants.js";
import { deriveSrsMint, deriveSrsRecordKey } from "../derive.js";
import { SnsError } from "../errors.js";
import { SrsOwnerType, decodeSrsRecord } from "../layouts/srs-record.js";
import { unpackToken2022Account, unpackToken2022Mint } from "../layouts/token-2022.js";
import type { ResolutionSteps } from "../resolution-steps.js";
import { type HolderHints, type PdaPolicy, checkOwnerAllowed } from "./resolve.js";

export interface SrsResolveOptions {
  readonly pda: PdaPolicy;
  /** The host's clock in whole unix seconds, read once the record is: a record whose expiry is at or before it has expired. */
  readonly nowSeconds: () => number;
  /**
   * Told a record's expiry once the record has passed the expiry check with
   * one (never for 0): every answer decided from that record holds only
   * until then, when the name answers `DOMAIN_EXPIRED` instead.
   */
  readonly onExpiry?: (expiry: bigint) => void;
  /**
   * The token account that last held a token-owned name's mint, by record
   * key: when there is one, the mint's largest holders and that account are
   * read with the record, so a name still held there takes one round trip.
   */
  readonly hints?: Pick<HolderHints, "get" | "set" | "delete">;
  /** A traced request's recorder: told each step as it is decided (resolution-steps.ts). */
  readonly steps?: ResolutionSteps;
}

/** Reads started with the record, on a guess that the name is still token-owned and held where it was. */
interface Prefetched {
  readonly largest: Promise<readonly TokenAmountEntry[] | null>;
  readonly guess: Address;
  readonly account: AccountData | null;
}

const ownerNotFound = (message: string) => new SnsError("SRS_OWNER_NOT_FOUND", message);

export const srsExpired = (name: string, expiry: bigint) =>
  new SnsError("DOMAIN_EXPIRED", `${name} expired at ${expiry}`);

/**
 * The target of a TLD-less `.sol` name in the SRS registry: the record's
 * owner, or for a token-owned record the unique holder of its canonical
 * Token-2022 mint; either goes through the PDA rule.
 *
 * The canonical mint is read with the record, in one batch: a token-owned
 * name then takes three sequential round trips (record and mint, the mint's
 * largest holders, the holder's account) where reading each in turn takes
 * four, and one once its holder account is known (`hints`). A plain name
 * pays one more key in a batch it sends anyway.
 */
export async function resolveSrsName(chain: ChainReader, name: string, options: SrsResolveOptions): Promise<Address> {
  const recordKey = deriveSrsRecordKey(name);
  const mint = deriveSrsMint(recordKey);
  const steps = options.steps;
  steps?.account(recordKey, "SRS record");
  steps?.account(mint, "SRS token mint");
  const guess = options.hints?.get(recordKey);
  const largest = guess ? chain.getTokenLargestAccounts(mint) : undefined;
  largest?.catch(() => undefined); // only awaited if the name is still token-owned
  const [recordAccount, mintAccount, guessed] = await chain.getAccounts(
    guess ? [recordKey, mint, guess] : [recordKey, mint],
  );
  if (!recordAccount) {
    steps?.step(name, "SRS record", "absent");
    throw new SnsError("DOMAIN_NOT_FOUND", `SRS record of ${name} does not exist`);
  }
  const record = decodeSrsRecord(recordAccount);
  if (record.expiry !== 0n) {
    if (record.expiry <= BigInt(options.nowSeconds())) {
      steps?.step(name, "SRS record", `expired at ${record.expiry} (unix seconds)`);
      throw srsExpired(name, record.expiry);
    }
    options.onExpiry?.(record.expiry);
  }
  const told = steps && ((outcome: string) => steps.step(name, "SRS owner", outcome));
  if (record.ownerType === SrsOwnerType.PublicKey) {
    steps?.step(name, "SRS record", `owned by a key; expiry ${record.expiry === 0n ? "never" : record.expiry}`);
    if (guess) options.hints?.delete(recordKey);
    return checkOwnerAllowed(chain, record.owner, options.pda, told);
  }
  if (!bytesEqual(record.owner, addressToBytes(mint))) {
    steps?.step(name, "SRS record", "token-owned through a noncanonical mint: malformed");
    throw new SnsError("RECORD_MALFORMED", "SRS record has a noncanonical token mint");
  }
  steps?.step(name, "SRS record", `token-owned; expiry ${record.expiry === 0n ? "never" : record.expiry}`);
  const prefetched = largest && guess ? { largest, guess, account: guessed ?? null } : undefined;
  const holder = await srsTokenHolder(chain, mint, mintAccount ?? null, prefetched, (account) => {
    if (account !== guess) options.hints?.set(recordKey, account);
  });
  return checkOwnerAllowed(chain, holder, options.pda, told);
}

/** The wallet holding the one token of an SRS name's mint, with spl-token 0.4's reading of Token-2022 accounts. */
async function srsTokenHolder(
  chain: ChainReader,
  mint: Address,
  mintAccount: AccountData | null,
  prefetched: Prefetched | undefined,
  holderAccountSeen: (account: Address) => void,
): Promise<Uint8Array> {
  const mintState = mintAccount?.owner === TOKEN_2022_PROGRAM_ID ? unpackToken2022Mint(mintAccount.data) : null;
  if (!mintState?.isInitialized || mintState.decimals !== 0 || mintState.supply !== 1n) {
    throw ownerNotFound("SRS token mint is invalid");
  }
  // null: the node says there is no such mint (-32602), so no holder either.
  const largest = (await (prefetched?.largest ?? chain.getTokenLargestAccounts(mint))) ?? [];
  const holders = largest.filter((entry) => entry.amount === "1");
  if (holders.length !== 1) throw ownerNotFound("SRS token mint has no unique current holder");
  const address = holders[0]!.address;
  holderAccountSeen(address);
  const holderAccount = prefetched?.guess === address ? prefetched.account : (await chain.getAccounts([address]))[0];
  const holder = holderAccount?.owner === TOKEN_2022_PROGRAM_ID ? unpackToken2022Account(holderAccount.data) : null;
  if (!holder?.isInitialized || !bytesEqual(holder.mint, addressToBytes(mint)) || holder.amount !== 1n) {
    throw ownerNotFound("SRS token holder account is invalid");
  }
  return holder.owner;
}
