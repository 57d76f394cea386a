import type { Address } from "@solana/kit";
import {
  type Ledger,
  associatedToken2022Address,
  encodeSrsRecord,
  encodeToken2022Account,
  encodeToken2022Mint,
  IMMUTABLE_OWNER,
  mintCloseAuthority,
} from "../src/localnet/index.js";
import { SRS_PROGRAM_ID, TOKEN_2022_PROGRAM_ID } from "../src/sns/constants.js";
import { deriveSrsMint, deriveSrsRecordKey } from "../src/sns/derive.js";
import type { SrsRecordInput } from "../src/sns/layouts/srs-record.js";

/*
 * SRS chain states written straight into a ledger, for states a fixture
 * cannot spell (malformed records, mints and holder accounts).
 */

export const srsRecordOf = (name: string): Address => deriveSrsRecordKey(name);
export const srsMintOf = (name: string): Address => deriveSrsMint(deriveSrsRecordKey(name));

/** An SRS record: `fields` as the encoder takes them, or raw `data`, owned by `program`. */
export function putSrsRecord(
  ledger: Ledger,
  name: string,
  fields: SrsRecordInput | { readonly data: Uint8Array },
  program: Address = SRS_PROGRAM_ID,
): Address {
  const address = srsRecordOf(name);
  ledger.setAccount(address, { owner: program, data: "data" in fields ? fields.data : encodeSrsRecord(fields) });
  return address;
}

export interface MintSpec {
  readonly supply?: bigint;
  readonly decimals?: number;
  readonly initialized?: boolean;
  /** Extended form with a MintCloseAuthority extension (default true). */
  readonly extensions?: boolean;
  readonly program?: Address;
  /** Raw bytes instead of the fields above. */
  readonly data?: Uint8Array;
}

export interface HolderSpec {
  readonly wallet: Address;
  readonly amount?: bigint;
  /** 0 uninitialized, 1 initialized (default), 2 frozen. */
  readonly state?: number;
  /** Extended form with ImmutableOwner (default true). */
  readonly extensions?: boolean;
  readonly program?: Address;
  /** The mint field (default the name's mint). */
  readonly mint?: Address;
  readonly data?: Uint8Array;
}

/** A token-owned SRS name: record naming the canonical mint (or `recordMint`), the mint, and its holders' accounts. */
export function putSrsTokenName(
  ledger: Ledger,
  name: string,
  spec: {
    readonly mint?: MintSpec | null;
    readonly holders?: readonly HolderSpec[];
    readonly recordMint?: Address;
    readonly expiry?: bigint;
  },
): { readonly record: Address; readonly mint: Address; readonly holders: Address[] } {
  const mint = srsMintOf(name);
  const record = putSrsRecord(ledger, name, {
    owner: spec.recordMint ?? mint,
    ownerType: 1,
    expiry: spec.expiry ?? 0n,
  });
  if (spec.mint !== null) {
    const m = spec.mint ?? {};
    const data =
      m.data ??
      encodeToken2022Mint(
        {
          supply: m.supply ?? 1n,
          decimals: m.decimals ?? 0,
          mintAuthority: SRS_PROGRAM_ID,
          initialized: m.initialized ?? true,
        },
        m.extensions === false ? undefined : [mintCloseAuthority(SRS_PROGRAM_ID)],
      );
    ledger.setAccount(mint, { owner: m.program ?? TOKEN_2022_PROGRAM_ID, data });
  }
  const holders = (spec.holders ?? []).map((h) => {
    const address = associatedToken2022Address(h.wallet, mint);
    const data =
      h.data ??
      encodeToken2022Account(
        { mint: h.mint ?? mint, owner: h.wallet, amount: h.amount ?? 1n, state: h.state ?? 1 },
        h.extensions === false ? undefined : [IMMUTABLE_OWNER],
      );
    ledger.setAccount(address, { owner: h.program ?? TOKEN_2022_PROGRAM_ID, data });
    return address;
  });
  return { record, mint, holders };
}

/** A `getTokenLargestAccounts` result naming `entries` (address, raw amount): served through a localnet fault. */
export const largestAccountsResult = (entries: readonly (readonly [Address, string])[]) => ({
  context: { slot: 1 },
  value: entries.map(([address, amount]) => ({
    address,
    amount,
    decimals: 0,
    uiAmount: Number(amount),
    uiAmountString: amount,
  })),
});
