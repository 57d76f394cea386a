import { bytesToAddress } from "../sns/bytes.js";
import { TOKEN_2022_PROGRAM_ID, TOKEN_ACCOUNT_LEN, TOKEN_PROGRAM_ID } from "../sns/constants.js";

import { MINT_LEN } from "../sns/constants.js";

export { MINT_LEN };
const ACCOUNT_TYPE_OFFSET = TOKEN_ACCOUNT_LEN;
const ACCOUNT_TYPE_MINT = 1;
const ACCOUNT_TYPE_ACCOUNT = 2;
const MULTISIG_LEN = 355;

export interface TokenBalance {
  readonly address: string;
  readonly amount: bigint;
}

export interface MintInfo {
  readonly supply: bigint;
  readonly decimals: number;
}

interface OwnedData {
  readonly owner: string;
  readonly data: Uint8Array;
}

export function isTokenProgram(program: string): boolean {
  return program === TOKEN_PROGRAM_ID || program === TOKEN_2022_PROGRAM_ID;
}

const view = (data: Uint8Array) => new DataView(data.buffer, data.byteOffset, data.byteLength);

/**
 * Same acceptance rule as the spl-token unpackers: the classic layout exactly,
 * or a Token-2022 layout extended past 165 bytes carrying the type marker.
 */
function hasLayout(account: OwnedData, baseLength: number, accountType: number): boolean {
  const { data } = account;
  if (data.length === baseLength) return true;
  return (
    account.owner === TOKEN_2022_PROGRAM_ID &&
    data.length > ACCOUNT_TYPE_OFFSET &&
    data.length !== MULTISIG_LEN &&
    data[ACCOUNT_TYPE_OFFSET] === accountType
  );
}

/** Initialized mint fields, or undefined when the data does not unpack as a mint. */
export function readMint(data: Uint8Array, owner: string = TOKEN_PROGRAM_ID): MintInfo | undefined {
  if (!hasLayout({ owner, data }, MINT_LEN, ACCOUNT_TYPE_MINT) || data[45] !== 1) return undefined;
  return { supply: view(data).getBigUint64(36, true), decimals: data[44]! };
}

function tokenAccountMint(account: OwnedData): string | undefined {
  if (!isTokenProgram(account.owner) || !hasLayout(account, TOKEN_ACCOUNT_LEN, ACCOUNT_TYPE_ACCOUNT)) return undefined;
  return bytesToAddress(account.data.subarray(0, 32));
}

const tokenAmount = (data: Uint8Array): bigint => view(data).getBigUint64(64, true);

/** mint → token accounts, so largest-holder queries never scan the ledger. */
export class TokenIndex {
  readonly #byMint = new Map<string, Map<string, bigint>>();

  add(address: string, account: OwnedData): void {
    const mint = tokenAccountMint(account);
    if (mint === undefined) return;
    let holders = this.#byMint.get(mint);
    if (!holders) this.#byMint.set(mint, (holders = new Map()));
    holders.set(address, tokenAmount(account.data));
  }

  remove(address: string, account: OwnedData): void {
    const mint = tokenAccountMint(account);
    if (mint === undefined) return;
    const holders = this.#byMint.get(mint);
    holders?.delete(address);
    if (holders?.size === 0) this.#byMint.delete(mint);
  }

  clear(): void {
    this.#byMint.clear();
  }

  largest(mint: string, limit: number): TokenBalance[] {
    const holders = this.#byMint.get(mint);
    if (!holders) return [];
    const balances = Array.from(holders, ([address, amount]) => ({ address, amount }));
    balances.sort((a, b) => (a.amount === b.amount ? 0 : a.amount > b.amount ? -1 : 1));
    return balances.slice(0, limit);
  }
}
