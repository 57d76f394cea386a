import type { Address } from "@solana/kit";
import { bytesToAddress } from "../bytes.js";
import type { AccountData, ChainReader } from "../chain.js";
import { NAME_PROGRAM_ID } from "../constants.js";
import {
  deriveAssociatedTokenAccount,
  derivePrimaryDomainKey,
  deriveReverseKey,
  deriveTokenizedMint,
} from "../derive.js";
import { decodeNameRegistryHeader, isRootParent } from "../layouts/name-registry.js";
import { decodePrimaryDomain } from "../layouts/primary-domain.js";
import { decodeReverseRecord } from "../layouts/reverse-record.js";
import { decodeTokenAccount } from "../layouts/token-account.js";

/** What the third round trip reads for one wallet. */
interface Lookup {
  readonly nameAccount: AccountData;
  readonly reverse: Address;
  readonly holding: Address;
  readonly parentReverse: Address | undefined;
}

/** Null instead of a throw: one wallet's undecodable account never fails the others. */
function orNull<T>(read: () => T): T | null {
  try {
    return read();
  } catch {
    return null;
  }
}

/**
 * Primary domains of many wallets in three round trips whatever their number
 * (the loader splits each read into getMultipleAccounts calls of 100 keys):
 * primary accounts; their name accounts; then reverses, the wallets' NFT
 * token accounts and parent reverses together. Item i is wallet i's primary
 * as `label` or `sub.parent`, or null when it has none, it is no longer the
 * wallet's (registry owner, or holder of exactly one NFT), its reverse is
 * missing, or one of its accounts cannot be decoded.
 */
export async function findPrimaryDomains(chain: ChainReader, wallets: readonly Address[]): Promise<(string | null)[]> {
  const primaries = await chain.getAccounts(wallets.map(derivePrimaryDomainKey));
  const nameAccounts = primaries.map((primary) =>
    primary ? orNull(() => decodePrimaryDomain(primary.data).nameAccount) : null,
  );
  const chosen = nameAccounts.filter((key): key is Address => key !== null);
  const fetched = new Map<Address, AccountData | null>();
  (await chain.getAccounts(chosen)).forEach((account, i) => fetched.set(chosen[i]!, account));

  const lookups = wallets.map((wallet, i): Lookup | null => {
    const key = nameAccounts[i];
    const nameAccount = key ? fetched.get(key) : null;
    if (!key || !nameAccount) return null;
    return orNull(() => {
      const { parentName } = decodeNameRegistryHeader(nameAccount.data);
      const isSubdomain = nameAccount.owner === NAME_PROGRAM_ID && !isRootParent(parentName);
      const parent = bytesToAddress(parentName);
      return {
        nameAccount,
        reverse: deriveReverseKey(key, isSubdomain ? parent : undefined),
        holding: deriveAssociatedTokenAccount(wallet, deriveTokenizedMint(key)),
        parentReverse: isSubdomain ? deriveReverseKey(parent) : undefined,
      };
    });
  });
  const keys = lookups.flatMap((l) => (l ? [l.reverse, l.holding, ...(l.parentReverse ? [l.parentReverse] : [])] : []));
  const accounts = new Map<Address, AccountData | null>();
  (await chain.getAccounts(keys)).forEach((account, i) => accounts.set(keys[i]!, account));

  return wallets.map((wallet, i) => {
    const lookup = lookups[i];
    if (!lookup) return null;
    return orNull(() => primaryName(wallet, lookup, (key) => accounts.get(key) ?? null));
  });
}

/** The official SDK's rules for one wallet, in its order. */
function primaryName(wallet: Address, lookup: Lookup, account: (key: Address) => AccountData | null): string | null {
  const reverse = account(lookup.reverse);
  if (!reverse) return null;
  const parentReverse = lookup.parentReverse ? account(lookup.parentReverse) : null;
  const suffix =
    parentReverse && parentReverse.owner === NAME_PROGRAM_ID ? `.${decodeReverseRecord(parentReverse.data)}` : "";
  const registryOwner = bytesToAddress(decodeNameRegistryHeader(lookup.nameAccount.data).owner);
  // Only this branch strips the subdomain NUL, as upstream does.
  if (registryOwner === wallet) return decodeReverseRecord(reverse.data, true) + suffix;
  const holding = account(lookup.holding);
  if (!holding || decodeTokenAccount(holding.data).amount !== 1n) return null;
  return decodeReverseRecord(reverse.data) + suffix;
}
