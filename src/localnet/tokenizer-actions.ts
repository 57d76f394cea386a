import type { Address } from "@solana/kit";
import { addressToBytes, bytesToAddress } from "../sns/bytes.js";
import { NAME_PROGRAM_ID, NAME_TOKENIZER_ID, TOKEN_PROGRAM_ID } from "../sns/constants.js";
import { deriveAssociatedTokenAccount, deriveNftRecordKey, deriveTokenizedMint } from "../sns/derive.js";
import { encodeMint } from "../sns/layouts/mint.js";
import { NftRecordTag, decodeNftRecord, encodeNftRecord } from "../sns/layouts/nft-record.js";
import { encodeTokenAccount } from "../sns/layouts/token-account.js";
import { TOKENIZER_CENTRAL_STATE, tokenizedAccounts } from "./fixture/tokenized.js";
import { type AccountInput, type Ledger, LedgerError } from "./ledger.js";
import type { TransactionVersion } from "./transactions.js";

// What the name tokenizer, the token program and the name service do to
// accounts, as ledger transactions, so tests can change tokenized domains
// while a gateway runs. Each action is one transaction of the version asked
// for (`version`), or of the ledger's default one.

/** The message version of an action's transaction; absent: the ledger's default. */
interface Versioned {
  readonly version?: TransactionVersion;
}

/** The name account with its registry owner (bytes 32..64) replaced. */
function withOwner(ledger: Ledger, domainKey: Address, owner: Address): AccountInput {
  const account = ledger.getAccount(domainKey);
  if (!account) throw new LedgerError(`no name account ${domainKey}`);
  const data = account.data.slice();
  data.set(addressToBytes(owner), 32);
  return { owner: account.owner, data, lamports: account.lamports };
}

/**
 * Tokenizes a domain for `holder`: an active NFT record, a mint of supply 1
 * and the holder's token account with one token; the name account passes to
 * the NFT record, as the tokenizer does. Also re-tokenizes an unwrapped domain.
 */
export function tokenizeDomain(ledger: Ledger, input: { domainKey: Address; holder: Address } & Versioned): string {
  const writes = new Map<string, AccountInput | null>();
  for (const { address, account } of tokenizedAccounts(input.domainKey, input.holder, {
    holder: input.holder,
    state: "active",
  })) {
    writes.set(address, account);
  }
  writes.set(input.domainKey, withOwner(ledger, input.domainKey, deriveNftRecordKey(input.domainKey)));
  const programs = [NAME_TOKENIZER_ID, TOKEN_PROGRAM_ID, NAME_PROGRAM_ID];
  return ledger.transact({ feePayer: input.holder, programs, writes, version: input.version }).signature;
}

/** Moves a domain's NFT between wallets: a token-program transaction, the tokenizer is not involved. */
export function transferDomainNft(
  ledger: Ledger,
  input: { domainKey: Address; from: Address; to: Address } & Versioned,
): string {
  const mint = deriveTokenizedMint(input.domainKey);
  const writes = new Map<string, AccountInput | null>([
    [
      deriveAssociatedTokenAccount(input.from, mint),
      { owner: TOKEN_PROGRAM_ID, data: encodeTokenAccount({ mint, owner: input.from, amount: 0n }) },
    ],
    [
      deriveAssociatedTokenAccount(input.to, mint),
      { owner: TOKEN_PROGRAM_ID, data: encodeTokenAccount({ mint, owner: input.to, amount: 1n }) },
    ],
  ]);
  return ledger.transact({ feePayer: input.from, programs: [TOKEN_PROGRAM_ID], writes, version: input.version })
    .signature;
}

/** Unwraps a tokenized domain to `to`: the NFT is burned, its record turns inactive, the name account goes to `to`. */
export function unwrapDomain(ledger: Ledger, input: { domainKey: Address; to: Address } & Versioned): string {
  const recordKey = deriveNftRecordKey(input.domainKey);
  const mint = deriveTokenizedMint(input.domainKey);
  const current = ledger.getAccount(recordKey);
  if (!current) throw new LedgerError(`${input.domainKey} is not tokenized`);
  const record = decodeNftRecord(current.data);
  const writes = new Map<string, AccountInput | null>([
    [
      recordKey,
      {
        owner: NAME_TOKENIZER_ID,
        data: encodeNftRecord({
          tag: NftRecordTag.InactiveRecord,
          nonce: record.nonce,
          nameAccount: input.domainKey,
          owner: input.to,
          nftMint: mint,
        }),
      },
    ],
    [
      mint,
      {
        owner: TOKEN_PROGRAM_ID,
        data: encodeMint({ supply: 0n, decimals: 0, mintAuthority: TOKENIZER_CENTRAL_STATE }),
      },
    ],
    [input.domainKey, withOwner(ledger, input.domainKey, input.to)],
  ]);
  const [largest] = ledger.tokenLargestAccounts(mint);
  if (largest) {
    writes.set(largest.address, {
      owner: TOKEN_PROGRAM_ID,
      data: encodeTokenAccount({ mint, owner: input.to, amount: 0n }),
    });
  }
  const programs = [NAME_TOKENIZER_ID, TOKEN_PROGRAM_ID, NAME_PROGRAM_ID];
  return ledger.transact({ feePayer: input.to, programs, writes, version: input.version }).signature;
}

/**
 * Transfers a name to `to` with the name service alone (its registry owner
 * signs): the tokenizer is not involved, so its signatures do not list it.
 */
export function transferName(
  ledger: Ledger,
  input: { domainKey: Address; from: Address; to: Address } & Versioned,
): string {
  const current = ledger.getAccount(input.domainKey);
  if (current && bytesToAddress(current.data.subarray(32, 64)) !== input.from) {
    throw new LedgerError(`${input.from} does not own ${input.domainKey}`);
  }
  const writes = new Map([[input.domainKey, withOwner(ledger, input.domainKey, input.to)]]);
  return ledger.transact({ feePayer: input.from, programs: [NAME_PROGRAM_ID], writes, version: input.version })
    .signature;
}
