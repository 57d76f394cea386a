import type { Address } from "@solana/kit";
import type { FixtureAccount } from "../../src/localnet/index.js";
import type { Rng } from "../rng.js";
import type { Owner } from "./owners.js";
import type { KeySource, LargestAccountsOverride, SdkErrorClass, SdkOutcome } from "./types.js";

// What every layer of the resolution precedence (domain, NFT record, V2 and V1 SOL records, owner) is
// built with: the state under construction, and the effect the layer has when resolution reaches it.

/** What one layer of the precedence does when resolution reaches it. */
export type Effect =
  | { readonly kind: "fall" }
  | { readonly kind: "key"; readonly key: Uint8Array; readonly source: KeySource }
  | { readonly kind: "error"; readonly error: SdkErrorClass }
  | { readonly kind: "undecodable"; readonly what: string; readonly sdk: SdkOutcome };

export const FALL: Effect = { kind: "fall" };
export const GENERIC: SdkOutcome = { kind: "error", error: "Generic" };
export const undecodable = (what: string): Effect => ({ kind: "undecodable", what, sdk: GENERIC });

export interface Keys {
  readonly domain: Address;
  readonly nftRecord: Address;
  readonly solV1: Address;
  readonly solV2: Address;
  readonly mint: Address;
}

export interface Build {
  readonly rng: Rng;
  readonly name: string;
  readonly keys: Keys;
  readonly owner: Owner;
  readonly accounts: FixtureAccount[];
  largest?: LargestAccountsOverride;
}

export function put(b: Build, address: Address, program: Address, data: Uint8Array): void {
  b.accounts.push({ address, account: { owner: program, data } });
}

export const concat = (...parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
};

export type Mode = "fall" | "any";
