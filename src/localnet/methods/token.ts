import type { Ledger, MintInfo } from "../ledger.js";
import { configParam, contextSlot, pubkeyParam } from "../params.js";
import { invalidParams } from "../json-rpc-error-answer.js";
import { isTokenProgram } from "../token-index.js";
import { bytesToAddress } from "../../sns/bytes.js";
import { TOKEN_ACCOUNT_LEN } from "../../sns/constants.js";
import { type MethodHandler, withContext } from "./context.js";

/** `UiTokenAmount`: raw amount as a string plus the decimal renderings Agave adds. */
export function uiTokenAmount(amount: bigint, decimals: number) {
  const digits = amount.toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "");
  const uiAmountString = fraction ? `${whole}.${fraction}` : whole;
  return { amount: amount.toString(), decimals, uiAmount: Number(uiAmountString), uiAmountString };
}

/** Same checks, in the same order and with the same messages, as Agave's mint lookup. */
function requireMint(ledger: Ledger, address: string): MintInfo {
  const account = ledger.getAccount(address);
  if (!account) throw invalidParams("Invalid param: could not find account");
  if (!isTokenProgram(account.owner)) throw invalidParams("Invalid param: not a Token mint");
  const mint = ledger.getMint(address);
  if (!mint) throw invalidParams("Invalid param: Token mint could not be unpacked");
  return mint;
}

export const getTokenLargestAccounts: MethodHandler = (params, ledger) => {
  const address = pubkeyParam(params, 0);
  const slot = contextSlot(ledger, configParam(params, 1));
  const { decimals } = requireMint(ledger, address);
  const largest = ledger.tokenLargestAccounts(address);
  return withContext(
    slot,
    largest.map((entry) => ({ address: entry.address, ...uiTokenAmount(entry.amount, decimals) })),
  );
};

export const getTokenSupply: MethodHandler = (params, ledger) => {
  const address = pubkeyParam(params, 0);
  const slot = contextSlot(ledger, configParam(params, 1));
  const { supply, decimals } = requireMint(ledger, address);
  return withContext(slot, uiTokenAmount(supply, decimals));
};

export const getTokenAccountBalance: MethodHandler = (params, ledger) => {
  const address = pubkeyParam(params, 0);
  const slot = contextSlot(ledger, configParam(params, 1));
  const account = ledger.getAccount(address);
  if (!account) throw invalidParams("Invalid param: could not find account");
  if (!isTokenProgram(account.owner) || account.data.length < TOKEN_ACCOUNT_LEN) {
    throw invalidParams("Invalid param: not a Token account");
  }
  const view = new DataView(account.data.buffer, account.data.byteOffset, account.data.byteLength);
  const mint = ledger.getMint(bytesToAddress(account.data.subarray(0, 32)));
  if (!mint) throw invalidParams("Invalid param: could not find mint");
  return withContext(slot, uiTokenAmount(view.getBigUint64(64, true), mint.decimals));
};
