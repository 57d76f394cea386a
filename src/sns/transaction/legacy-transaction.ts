import type { Address } from "@solana/kit";
import { addressToBytes } from "../bytes.js";
import { SIGNATURE_LEN } from "../constants.js";
import { SnsError } from "../errors.js";
import type { Instruction } from "../instructions/instruction.js";
import { type CompiledLegacyMessage, compileLegacyMessage } from "./legacy-message.js";

/*
 * The legacy wire format, written here rather than with @solana/kit's
 * transaction codecs: those depend on @solana/keys, whose Workers build
 * imports Node's `fs` and `path`, which the Workers bundle refuses. The
 * format is small; `test/gateway/write-routes.test.ts` decodes our bytes with
 * kit's decoders and with web3.js 1.x.
 */

/**
 * Largest transaction a validator accepts (an IPv6 packet's payload less
 * headers: 1280 - 40 - 8). web3.js 1.x refuses to serialize past it, so
 * upstream fails such a request; a transaction that can never land is not an answer.
 */
export const MAX_TRANSACTION_BYTES = 1232;

/** Solana's compact-u16 ("shortvec"): 7 bits a byte, low bits first, high bit set when more follow. */
function compactU16(value: number): number[] {
  if (!Number.isInteger(value) || value < 0 || value > 0xffff)
    throw new RangeError(`compact-u16 out of range: ${value}`);
  const out: number[] = [];
  let rest = value;
  for (;;) {
    const low = rest & 0x7f;
    rest >>= 7;
    if (rest === 0) {
      out.push(low);
      return out;
    }
    out.push(low | 0x80);
  }
}

/** Collects the bytes of one transaction. */
class ByteWriter {
  private readonly parts: (Uint8Array | number[])[] = [];
  private length = 0;

  push(bytes: Uint8Array | number[]): void {
    this.parts.push(bytes);
    this.length += bytes.length;
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.length);
    let offset = 0;
    for (const part of this.parts) {
      out.set(part, offset);
      offset += part.length;
    }
    return out;
  }
}

function writeMessage(writer: ByteWriter, message: CompiledLegacyMessage): void {
  const { header } = message;
  writer.push([header.numSignerAccounts, header.numReadonlySignerAccounts, header.numReadonlyNonSignerAccounts]);
  writer.push(compactU16(message.staticAccounts.length));
  for (const address of message.staticAccounts) writer.push(addressToBytes(address));
  writer.push(addressToBytes(message.lifetimeToken));
  writer.push(compactU16(message.instructions.length));
  for (const instruction of message.instructions) {
    writer.push([instruction.programAddressIndex]);
    writer.push(compactU16(instruction.accountIndices.length));
    writer.push(instruction.accountIndices);
    writer.push(compactU16(instruction.data.length));
    writer.push(instruction.data);
  }
}

/**
 * The unsigned legacy transaction of `instructions`, paid by `feePayer`
 * under `blockhash`, in wire format: the signature count, a zeroed 64-byte
 * slot per required signature, then the message.
 * @throws SnsError INVALID_INPUT when it would exceed MAX_TRANSACTION_BYTES (a name too long to fit).
 */
export function unsignedLegacyTransaction(
  feePayer: Address,
  instructions: readonly Instruction[],
  blockhash: string,
): Uint8Array {
  const message = compileLegacyMessage(feePayer, instructions, blockhash);
  const writer = new ByteWriter();
  const signatures = message.header.numSignerAccounts;
  writer.push(compactU16(signatures));
  writer.push(new Uint8Array(signatures * SIGNATURE_LEN));
  writeMessage(writer, message);
  const bytes = writer.finish();
  if (bytes.length > MAX_TRANSACTION_BYTES) {
    throw new SnsError("INVALID_INPUT", `transaction too large: ${bytes.length} > ${MAX_TRANSACTION_BYTES} bytes`);
  }
  return bytes;
}
