import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { Ledger, LedgerOptions } from "./ledger.js";
import { loadFixture } from "./fixture/load.js";

export { type FixtureAccount, rawAccount } from "./fixture/accounts.js";
export { DEFAULT_DOMAIN_SPACE, buildDomainAccounts } from "./fixture/domains.js";
export { type Identity, LOCALNET_PDA_PROGRAM, findBump, identity, pdaAddress } from "./fixture/identity.js";
export { FixtureError, decodeBytes, resolveKey, reverseKeyOf } from "./fixture/keys.js";
export * from "./fixture/layouts.js";
export { type BuiltFixture, applyFixture, buildFixtureAccounts, loadFixture } from "./fixture/load.js";
export { type RecordParent, recordV2Account, solRecordV1Account, solRecordV2Account } from "./fixture/records.js";
export { associatedToken2022Address, srsNameAccounts } from "./fixture/srs.js";
export type { SrsNameSpec } from "./fixture/schema.js";
export type { BytesSpec, DomainSpec, Fixture, KeyRef, RawAccountSpec, RecordV2Spec } from "./fixture/schema.js";
export {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  TOKENIZER_CENTRAL_STATE,
  associatedTokenAddress,
  tokenizedAccounts,
} from "./fixture/tokenized.js";

/** `fixtures/demo.json` at the package root (same depth from `src/` and `dist/`). */
export const DEMO_FIXTURE_PATH = fileURLToPath(new URL("../../fixtures/demo.json", import.meta.url));

/** Reads and loads a JSON fixture file; `options` as for loadFixture. */
export async function loadFixtureFile(path: string, options?: LedgerOptions): Promise<Ledger> {
  const text = await readFile(path, "utf8");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`${path} is not valid JSON: ${(error as Error).message}`);
  }
  return loadFixture(json, options);
}
