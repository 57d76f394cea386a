import { accountJson, encodingOptions } from "../account-json.js";
import { configParam, contextSlot, pubkeyParam, typeName } from "../params.js";
import { badParams, invalidParams } from "../json-rpc-error-answer.js";
import { type MethodHandler, withContext } from "./context.js";

export const MAX_MULTIPLE_ACCOUNTS = 100;

export const getAccountInfo: MethodHandler = (params, ledger) => {
  const address = pubkeyParam(params, 0);
  const config = configParam(params, 1);
  const options = encodingOptions(config);
  const slot = contextSlot(ledger, config);
  const account = ledger.getAccount(address);
  return withContext(slot, account ? accountJson(account, options) : null);
};

export const getMultipleAccounts: MethodHandler = (params, ledger) => {
  const keys = params[0];
  if (!Array.isArray(keys)) throw badParams(`invalid type: ${typeName(keys)}, expected a sequence`);
  if (keys.length > MAX_MULTIPLE_ACCOUNTS) {
    throw invalidParams(`Too many inputs provided; max ${MAX_MULTIPLE_ACCOUNTS}`);
  }
  const addresses = keys.map((_, index) => pubkeyParam(keys, index));
  const config = configParam(params, 1);
  const options = encodingOptions(config);
  const slot = contextSlot(ledger, config);
  return withContext(
    slot,
    addresses.map((address) => {
      const account = ledger.getAccount(address);
      return account ? accountJson(account, options) : null;
    }),
  );
};

export const getBalance: MethodHandler = (params, ledger) => {
  const address = pubkeyParam(params, 0);
  const slot = contextSlot(ledger, configParam(params, 1));
  return withContext(slot, ledger.getAccount(address)?.lamports ?? 0);
};

export const getMinimumBalanceForRentExemption: MethodHandler = (params, ledger) => {
  const length = params[0] ?? 0;
  if (typeof length !== "number" || !Number.isSafeInteger(length) || length < 0) {
    throw badParams(`invalid type: ${typeName(length)}, expected usize`);
  }
  return ledger.rentExemptMinimum(length);
};
