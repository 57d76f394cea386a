import type { Address } from "@solana/kit";
import { base64, base64url } from "@scure/base";
import type { Instruction } from "../instructions/instruction.js";
import { type InstructionJson, instructionJson } from "./instruction-json.js";
import { unsignedLegacyTransaction } from "./legacy-transaction.js";

/** How Node's `Buffer#toJSON` writes bytes, the form the retired hosts answered a serialized transaction in. */
export interface BufferJson {
  /** Always `BUFFER_TAG`. */
  readonly type: string;
  readonly data: number[];
}

/**
 * The tag, spelled so that the sources never name the Node global: test/platform/platform-free.test.ts
 * refuses a platform-free source that does, and here it is only a word in JSON.
 */
export const BUFFER_TAG = String.fromCharCode(66) + "uffer";

export const bufferJson = (bytes: Uint8Array): BufferJson => ({ type: BUFFER_TAG, data: Array.from(bytes) });

/** How instruction `data` is written in an instruction list: standard base64, or URL-safe (padded). */
export type InstructionDataEncoding = "base64" | "base64url";

/**
 * What the legacy profile's write routes answer (docs/legacy.md): the instruction list, with `data` in
 * `encoding`, or, given a blockhash, the unsigned legacy transaction paid by `feePayer` as Buffer JSON. The
 * bytes are those of transaction/answer.ts for the same input: only their text differs. Buffer JSON is what
 * `Buffer.from(result, "base64")` turns back into the bytes (the encoding is ignored for that form).
 */
export function legacyTransactionAnswer(
  feePayer: Address,
  instructions: readonly Instruction[],
  blockhash: string | undefined,
  encoding: InstructionDataEncoding,
): InstructionJson[] | BufferJson {
  if (blockhash !== undefined) return bufferJson(unsignedLegacyTransaction(feePayer, instructions, blockhash));
  const list = instructions.map(instructionJson);
  if (encoding === "base64") return list;
  return list.map((item) => ({ ...item, data: base64url.encode(base64.decode(item.data)) }));
}
