import type { Address } from "@solana/kit";
import { MINT_LEN } from "../constants.js";
import { writeKey } from "./name-registry.js";

export interface MintInput {
  readonly supply: bigint;
  readonly decimals: number;
  readonly mintAuthority?: Address;
  readonly freezeAuthority?: Address;
}

/** Classic SPL mint (SPL Token program), 82 bytes, initialized. */
export function encodeMint(input: MintInput): Uint8Array {
  const data = new Uint8Array(MINT_LEN);
  const view = new DataView(data.buffer);
  if (input.mintAuthority) {
    view.setUint32(0, 1, true);
    writeKey(data, 4, input.mintAuthority);
  }
  view.setBigUint64(36, input.supply, true);
  data[44] = input.decimals;
  data[45] = 1;
  if (input.freezeAuthority) {
    view.setUint32(46, 1, true);
    writeKey(data, 50, input.freezeAuthority);
  }
  return data;
}
