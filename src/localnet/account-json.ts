import { encodeBase58 } from "../sns/bytes.js";
import type { LedgerAccount } from "./ledger.js";
import { type Config, isObject, optionalUnsigned, typeName } from "./params.js";
import { ErrorCode, JsonRpcErrorAnswer, badParams } from "./json-rpc-error-answer.js";

export type AccountEncoding = "binary" | "base58" | "base64" | "base64+zstd" | "jsonParsed";

export interface DataSlice {
  readonly offset: number;
  readonly length: number;
}

export interface EncodingOptions {
  readonly encoding: AccountEncoding;
  readonly dataSlice?: DataSlice;
}

/**
 * Agave reports `rentEpoch` as u64::MAX for rent-exempt accounts. JavaScript
 * numbers cannot hold it, so responses carry this stand-in (the nearest double,
 * 2^64) and the serializer rewrites it to the exact digits (see `serialize` in jsonrpc.ts).
 */
export const RENT_EXEMPT_EPOCH = 2 ** 64;

const MAX_BASE58_BYTES = 128;
const ENCODINGS: readonly AccountEncoding[] = ["binary", "base58", "base64", "base64+zstd", "jsonParsed"];
const base64Cache = new WeakMap<LedgerAccount, string>();

function parseDataSlice(value: unknown): DataSlice | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) throw badParams(`invalid type: ${typeName(value)}, expected struct UiDataSliceConfig`);
  const offset = optionalUnsigned(value, "offset");
  const length = optionalUnsigned(value, "length");
  if (offset === undefined) throw badParams("missing field `offset`");
  if (length === undefined) throw badParams("missing field `length`");
  return { offset, length };
}

/** Reads `encoding` and `dataSlice`; Agave defaults to the legacy `binary` encoding. */
export function encodingOptions(config: Config): EncodingOptions {
  const raw = config.encoding ?? "binary";
  if (typeof raw !== "string" || !(ENCODINGS as readonly string[]).includes(raw)) {
    const expected = ENCODINGS.map((e) => `\`${e}\``).join(", ");
    throw badParams(`unknown variant \`${String(raw)}\`, expected one of ${expected}`);
  }
  const encoding = raw as AccountEncoding;
  const dataSlice = parseDataSlice(config.dataSlice);
  if (encoding === "jsonParsed" && dataSlice) {
    throw new JsonRpcErrorAnswer(
      ErrorCode.InvalidRequest,
      "Sliced account data can only be encoded using binary (base 58) or base64 encoding.",
    );
  }
  if (encoding === "base64+zstd") {
    throw badParams("base64+zstd encoding is not supported by this ledger");
  }
  return dataSlice ? { encoding, dataSlice } : { encoding };
}

function sliceOf(data: Uint8Array, slice: DataSlice | undefined): Uint8Array {
  if (!slice) return data;
  const start = Math.min(slice.offset, data.length);
  return data.subarray(start, Math.min(start + slice.length, data.length));
}

function toBase64(account: LedgerAccount, slice: DataSlice | undefined): string {
  if (slice) {
    const bytes = sliceOf(account.data, slice);
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
  }
  let cached = base64Cache.get(account);
  if (cached === undefined) {
    const { data } = account;
    cached = Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("base64");
    base64Cache.set(account, cached);
  }
  return cached;
}

function encodeData(account: LedgerAccount, options: EncodingOptions): unknown {
  const { encoding, dataSlice } = options;
  if (encoding === "binary" || encoding === "base58") {
    const bytes = sliceOf(account.data, dataSlice);
    if (bytes.length > MAX_BASE58_BYTES) {
      throw new JsonRpcErrorAnswer(
        ErrorCode.InvalidRequest,
        `Encoded binary (base 58) data should be less than ${MAX_BASE58_BYTES} bytes, please use Base64 encoding.`,
      );
    }
    const text = encodeBase58(bytes);
    return encoding === "binary" ? text : [text, "base58"];
  }
  // jsonParsed falls back to base64 for every account, as Agave does for
  // programs it has no parser for.
  return [toBase64(account, dataSlice), "base64"];
}

/** `UiAccount` JSON as Agave renders it. */
export function accountJson(account: LedgerAccount, options: EncodingOptions) {
  return {
    data: encodeData(account, options),
    executable: account.executable,
    lamports: account.lamports,
    owner: account.owner,
    rentEpoch: RENT_EXEMPT_EPOCH,
    space: account.data.length,
  };
}
