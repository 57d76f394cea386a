import { accountJson, encodingOptions } from "../account-json.js";
import type { LedgerAccount } from "../ledger.js";
import type { MemcmpSpec } from "../program-index.js";
import { type Config, configParam, contextSlot, isObject, optionalUnsigned, pubkeyParam, typeName } from "../params.js";
import { badParams, invalidParams } from "../json-rpc-error-answer.js";
import { decodeBase58 } from "../../sns/bytes.js";
import { TOKEN_ACCOUNT_LEN } from "../../sns/constants.js";
import { isTokenProgram } from "../token-index.js";
import { type MethodHandler, withContext } from "./context.js";

const MAX_FILTERS = 4;
const MAX_FILTER_BYTES = 128;
const MAX_BASE58_CHARS = 175;
const MAX_BASE64_CHARS = 172;

type Filter = (account: LedgerAccount) => boolean;

/** A parsed filter; a memcmp also says what it compares, so the ledger can look its candidates up. */
interface ParsedFilter {
  readonly test: Filter;
  readonly memcmp?: MemcmpSpec;
}

function decodeFilterBytes(text: string, encoding: unknown): Uint8Array {
  if (encoding === undefined || encoding === null || encoding === "base58") {
    if (text.length > MAX_BASE58_CHARS) throw invalidParams("Invalid param: Base58DataTooLarge");
    try {
      return decodeBase58(text);
    } catch {
      throw invalidParams("Invalid param: DecodeError(InvalidCharacter)");
    }
  }
  if (encoding === "base64") {
    if (text.length > MAX_BASE64_CHARS) throw invalidParams("Invalid param: Base64DataTooLarge");
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) {
      throw invalidParams("Invalid param: DecodeError(InvalidByte)");
    }
    return new Uint8Array(Buffer.from(text, "base64"));
  }
  throw badParams(`unknown variant \`${String(encoding)}\`, expected \`base58\` or \`base64\``);
}

function memcmpFilter(memcmp: unknown): ParsedFilter {
  if (!isObject(memcmp)) throw badParams(`invalid type: ${typeName(memcmp)}, expected struct Memcmp`);
  const offset = optionalUnsigned(memcmp, "offset");
  if (offset === undefined) throw badParams("missing field `offset`");
  if (typeof memcmp.bytes !== "string") throw badParams("missing field `bytes`");
  const bytes = decodeFilterBytes(memcmp.bytes, memcmp.encoding);
  if (bytes.length > MAX_FILTER_BYTES) throw invalidParams("Invalid param: DataTooLarge");
  const test: Filter = ({ data }) => {
    if (offset + bytes.length > data.length) return false;
    for (let i = 0; i < bytes.length; i++) if (data[offset + i] !== bytes[i]) return false;
    return true;
  };
  return { test, memcmp: { offset, bytes } };
}

/** Initialized or frozen token accounts (state byte at 108). */
const tokenAccountState: Filter = ({ owner, data }) =>
  isTokenProgram(owner) && data.length >= TOKEN_ACCOUNT_LEN && data[108] !== 0;

function parseFilter(filter: unknown): ParsedFilter {
  if (filter === "tokenAccountState") return { test: tokenAccountState };
  if (!isObject(filter)) throw badParams(`invalid type: ${typeName(filter)}, expected a filter`);
  if ("dataSize" in filter) {
    const size = optionalUnsigned(filter, "dataSize");
    if (size === undefined) throw badParams("invalid type: null, expected u64");
    return { test: ({ data }) => data.length === size };
  }
  if ("memcmp" in filter) return memcmpFilter(filter.memcmp);
  throw badParams("unknown variant, expected one of `dataSize`, `memcmp`, `tokenAccountState`");
}

function parseFilters(config: Config): ParsedFilter[] {
  const filters = config.filters ?? [];
  if (!Array.isArray(filters)) throw badParams(`invalid type: ${typeName(filters)}, expected a sequence`);
  if (filters.length > MAX_FILTERS) throw invalidParams(`Too many filters provided; max ${MAX_FILTERS}`);
  return filters.map(parseFilter);
}

export const getProgramAccounts: MethodHandler = (params, ledger) => {
  const program = pubkeyParam(params, 0);
  const config = configParam(params, 1);
  const options = encodingOptions(config);
  const parsed = parseFilters(config);
  const filters = parsed.map(({ test }) => test);
  const memcmps = parsed.flatMap(({ memcmp }) => (memcmp ? [memcmp] : []));
  const slot = contextSlot(ledger, config);
  const matches = [];
  // A plain loop: without a short memcmp this runs once per account of the program (100,000s for a large one).
  scan: for (const [pubkey, account] of ledger.programCandidates(program, memcmps)) {
    for (const filter of filters) if (!filter(account)) continue scan;
    matches.push({ pubkey, account: accountJson(account, options) });
  }
  return config.withContext === true ? withContext(slot, matches) : matches;
};
