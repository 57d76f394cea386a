export {
  type AccountInput,
  type Commitment,
  DEFAULT_LAMPORTS_PER_BYTE,
  DEFAULT_SLOT_MS,
  Ledger,
  type LedgerAccount,
  LedgerError,
  type LedgerOptions,
  rentExemptMinimum,
} from "./ledger.js";
export type { MintInfo, TokenBalance } from "./token-index.js";
export { type Localnet, type LocalnetOptions, startLocalnet } from "./server.js";
export { type Fault, MALFORMED_RESULT } from "./faults.js";
export type { CallCount, LocalnetStats } from "./stats.js";
export type { CallMatch } from "./call-match.js";
export { ErrorCode, JsonRpcErrorAnswer } from "./json-rpc-error-answer.js";
export { GENESIS_HASH, MAX_MULTIPLE_ACCOUNTS, SOLANA_CORE_VERSION, blockhashAt, methods } from "./methods/index.js";
export * from "./fixture.js";
export { tokenizeDomain, transferDomainNft, transferName, unwrapDomain } from "./tokenizer-actions.js";
export {
  DEFAULT_TRANSACTION_VERSION,
  type RecordedTransaction,
  TRANSACTION_VERSIONS,
  type TransactionInput,
  type TransactionVersion,
} from "./transactions.js";
