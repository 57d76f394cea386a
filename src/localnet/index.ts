export {
  type AccountInput,
  type Commitment,
  Ledger,
  type LedgerAccount,
  LedgerError,
  rentExemptMinimum,
} from "./ledger.js";
export type { MintInfo, TokenBalance } from "./token-index.js";
export { type Localnet, type LocalnetOptions, startLocalnet } from "./server.js";
export { type Fault, MALFORMED_RESULT } from "./faults.js";
export type { LocalnetStats } from "./stats.js";
export { ErrorCode, RpcError } from "./rpc-error.js";
export { GENESIS_HASH, MAX_MULTIPLE_ACCOUNTS, SOLANA_CORE_VERSION, blockhashAt, methods } from "./methods/index.js";
export * from "./fixture.js";
export { tokenizeDomain, transferDomainNft, unwrapDomain } from "./tokenizer-actions.js";
export type { RecordedTransaction, TransactionInput } from "./transactions.js";
