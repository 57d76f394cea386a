import { decodeBase58 } from "../../sns/bytes.js";
import { configParam, contextSlot, optionalUnsigned, pubkeyParam } from "../params.js";
import { badParams, invalidParams } from "../rpc-error.js";
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
  const before = config.before === undefined || config.before === null ? undefined : signatureParam(config.before, "before");
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

/** `json` (and `jsonParsed`, with keys as objects) of a recorded transaction; null when unknown. */
export const getTransaction: MethodHandler = (params, ledger) => {
  const signature = signatureParam(params[0], "signature");
  const config = configParam(params, 1);
  const encoding = config.encoding ?? "json";
  if (encoding !== "json" && encoding !== "jsonParsed") {
    throw badParams(`unknown variant \`${String(encoding)}\`, expected \`json\` or \`jsonParsed\``);
  }
  const tx = ledger.transactions.get(signature);
  if (!tx || tx.slot > contextSlot(ledger, config)) return null;
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
      ...(config.maxSupportedTransactionVersion !== undefined && { loadedAddresses: { writable: [], readonly: [] } }),
    },
    transaction: { signatures: [tx.signature], message },
    ...(config.maxSupportedTransactionVersion !== undefined && { version: "legacy" }),
  };
};

