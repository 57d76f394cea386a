import { decodeBase58 } from "../../sns/bytes.js";
import { type Config, configParam, contextSlot, optionalUnsigned, pubkeyParam, typeName } from "../params.js";
import { ErrorCode, RpcError, badParams, invalidParams } from "../rpc-error.js";
import type { RecordedTransaction } from "../transactions.js";
import type { MethodHandler } from "./context.js";

const MAX_SIGNATURES = 1000;

function signatureParam(value: unknown, what: string): string {
  if (typeof value !== "string") throw badParams(`invalid type: ${typeof value}, expected a string for \`${what}\``);
  let bytes: Uint8Array;
  try {
    bytes = decodeBase58(value);
  } catch {
    throw invalidParams("Invalid param: Invalid");
  }
  if (bytes.length !== 64) throw invalidParams("Invalid param: Invalid");
  return value;
}

const status = (tx: RecordedTransaction) => (tx.failed ? { Err: { InstructionError: [0, "Custom"] } } : { Ok: null });
const err = (tx: RecordedTransaction) => (tx.failed ? { InstructionError: [0, { Custom: 1 }] } : null);

/** Newest first; `before` and `until` are exclusive, as in Agave. */
export const getSignaturesForAddress: MethodHandler = (params, ledger) => {
  const address = pubkeyParam(params, 0);
  const config = configParam(params, 1);
  const slot = contextSlot(ledger, config);
  const limit = optionalUnsigned(config, "limit") ?? MAX_SIGNATURES;
  if (limit < 1 || limit > MAX_SIGNATURES) throw invalidParams(`Invalid limit; max ${MAX_SIGNATURES}`);
  const before =
    config.before === undefined || config.before === null ? undefined : signatureParam(config.before, "before");
  const until = config.until === undefined || config.until === null ? undefined : signatureParam(config.until, "until");
  const found = [];
  let started = before === undefined;
  for (const tx of ledger.transactions.forAddress(address)) {
    if (tx.signature === until) break;
    if (!started) {
      started = tx.signature === before;
      continue;
    }
    if (tx.slot > slot) continue;
    found.push({
      signature: tx.signature,
      slot: tx.slot,
      err: err(tx),
      memo: null,
      blockTime: tx.blockTime,
      confirmationStatus: tx.slot <= ledger.slot ? "finalized" : "confirmed",
    });
    if (found.length === limit) break;
  }
  return found;
};

/** Newest message version the cluster executes, and so the highest `maxSupportedTransactionVersion` it takes. */
const NEWEST_VERSION = 1;

/**
 * `maxSupportedTransactionVersion`: absent or null (legacy only), 0 or 1.
 * Not a u8 is refused by the params layer; a u8 naming no version, by the handler.
 */
function maxVersionParam(config: Config): number | undefined {
  const value = config.maxSupportedTransactionVersion;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value))
    throw badParams(`invalid type: ${typeName(value)}, expected u8`);
  if (value < 0 || value > 255) throw badParams(`invalid value: integer \`${value}\`, expected u8`);
  if (value > NEWEST_VERSION) {
    throw invalidParams(
      `Invalid param: maxSupportedTransactionVersion ${value} is not a transaction version (0 to ${NEWEST_VERSION})`,
    );
  }
  return value;
}

/** Agave's refusal of a transaction newer than the request's maximum (absent: legacy only). */
const unsupportedVersion = (version: number) =>
  new RpcError(
    ErrorCode.UnsupportedTransactionVersion,
    `Transaction version (${version}) is not supported by the requesting client. ` +
      `Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": ${version}`,
  );

/**
 * The compute budget a version 1 message declares inline (in place of
 * ComputeBudget instructions); the same for every recorded transaction,
 * as the localnet runs no program and charges no compute.
 */
const V1_TRANSACTION_CONFIG = {
  computeUnitLimit: 200_000,
  heapSize: null,
  loadedAccountsDataSizeLimit: 65_536,
  priorityFee: null,
};

/** What a message adds to the common fields for its version: lookups for version 0, the budget for version 1. */
const versionFields = (tx: RecordedTransaction) =>
  tx.version === 0 ? { addressTableLookups: [] } : tx.version === 1 ? { transactionConfig: V1_TRANSACTION_CONFIG } : {};

/**
 * `json` (and `jsonParsed`, with keys as objects) of a recorded transaction;
 * null when unknown. A transaction newer than `maxSupportedTransactionVersion`
 * is refused with -32015, as Agave does; the ledger loads no address from a
 * lookup table, so `loadedAddresses` is always empty.
 */
export const getTransaction: MethodHandler = (params, ledger) => {
  const signature = signatureParam(params[0], "signature");
  const config = configParam(params, 1);
  const encoding = config.encoding ?? "json";
  if (encoding !== "json" && encoding !== "jsonParsed") {
    throw badParams(`unknown variant \`${String(encoding)}\`, expected \`json\` or \`jsonParsed\``);
  }
  const maxVersion = maxVersionParam(config);
  const tx = ledger.transactions.get(signature);
  if (!tx || tx.slot > contextSlot(ledger, config)) return null;
  if (tx.version !== "legacy" && (maxVersion === undefined || tx.version > maxVersion))
    throw unsupportedVersion(tx.version);
  const { accountKeys, header } = tx;
  const isWritable = (i: number) =>
    i < header.numRequiredSignatures - header.numReadonlySignedAccounts ||
    (i >= header.numRequiredSignatures && i < accountKeys.length - header.numReadonlyUnsignedAccounts);
  const message =
    encoding === "json"
      ? {
          header,
          accountKeys,
          recentBlockhash: accountKeys[0],
          instructions: tx.instructions.map((ix) => ({ ...ix, data: "", stackHeight: null })),
          ...versionFields(tx),
        }
      : {
          accountKeys: accountKeys.map((pubkey, i) => ({
            pubkey,
            signer: i < header.numRequiredSignatures,
            writable: isWritable(i),
            source: "transaction",
          })),
          recentBlockhash: accountKeys[0],
          instructions: tx.instructions.map((ix) => ({
            programId: accountKeys[ix.programIdIndex],
            accounts: ix.accounts.map((i) => accountKeys[i]),
            data: "",
            stackHeight: null,
          })),
          ...versionFields(tx),
        };
  return {
    slot: tx.slot,
    blockTime: tx.blockTime,
    meta: {
      err: err(tx),
      status: status(tx),
      fee: 5000,
      preBalances: accountKeys.map(() => 0),
      postBalances: accountKeys.map(() => 0),
      innerInstructions: [],
      logMessages: [],
      preTokenBalances: [],
      postTokenBalances: [],
      rewards: [],
      computeUnitsConsumed: 0,
      ...(maxVersion !== undefined && { loadedAddresses: { writable: [], readonly: [] } }),
    },
    transaction: { signatures: [tx.signature], message },
    ...(maxVersion !== undefined && { version: tx.version }),
  };
};
