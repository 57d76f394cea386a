import { getAccountInfo, getBalance, getMinimumBalanceForRentExemption, getMultipleAccounts } from "./accounts.js";
import {
  getBlockHeight,
  getEpochInfo,
  getGenesisHash,
  getHealth,
  getIdentity,
  getLatestBlockhash,
  getSlot,
  getVersion,
  isBlockhashValid,
} from "./cluster.js";
import type { MethodHandler } from "./context.js";
import { getProgramAccounts } from "./program-accounts.js";
import { getSignaturesForAddress, getTransaction } from "./transactions.js";
import { getTokenAccountBalance, getTokenLargestAccounts, getTokenSupply } from "./token.js";

export { type MethodHandler, SOLANA_CORE_VERSION, withContext } from "./context.js";
export { MAX_MULTIPLE_ACCOUNTS } from "./accounts.js";
export { GENESIS_HASH, blockhashAt } from "./cluster.js";

/** Every JSON-RPC method the ledger answers. */
export const methods: ReadonlyMap<string, MethodHandler> = new Map<string, MethodHandler>([
  ["getAccountInfo", getAccountInfo],
  ["getBalance", getBalance],
  ["getBlockHeight", getBlockHeight],
  ["getEpochInfo", getEpochInfo],
  ["getGenesisHash", getGenesisHash],
  ["getHealth", getHealth],
  ["getIdentity", getIdentity],
  ["getLatestBlockhash", getLatestBlockhash],
  ["getMinimumBalanceForRentExemption", getMinimumBalanceForRentExemption],
  ["getMultipleAccounts", getMultipleAccounts],
  ["getProgramAccounts", getProgramAccounts],
  ["getSignaturesForAddress", getSignaturesForAddress],
  ["getSlot", getSlot],
  ["getTokenAccountBalance", getTokenAccountBalance],
  ["getTokenLargestAccounts", getTokenLargestAccounts],
  ["getTokenSupply", getTokenSupply],
  ["getTransaction", getTransaction],
  ["getVersion", getVersion],
  ["isBlockhashValid", isBlockhashValid],
]);
