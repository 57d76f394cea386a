import { Ledger } from "../src/localnet/ledger.js";
import { bytesToAddress } from "../src/sns/bytes.js";
import { NAME_PROGRAM_ID, SNS_ROOT_DOMAIN } from "../src/sns/constants.js";
import { decodesAsPoint } from "../src/sns/curve.js";
import { deriveDomainKey } from "../src/sns/derive.js";
import { encodeNameRegistry } from "../src/sns/layouts/name-registry.js";
import { createRng } from "../testkit/rng.js";

/**
 * `count` plain `.sns` names (lowercase ASCII, no subdomain) of `seed`, the
 * same in every process: the bulk bench's client asks for them, its localnet
 * child holds them (plainLedger).
 */
export function plainNames(seed: number, count: number): string[] {
  return plainEntries(seed, count).map(({ name }) => `${name}.sns`);
}

/**
 * Each plain name as a name account owned by a wallet of its own (random
 * on-curve bytes) and nothing else: no record, no tokenizer. Built here
 * rather than by chain-gen, which spends milliseconds a name on shapes and
 * signatures this bench does not use.
 */
export function plainLedger(seed: number, count: number): Ledger {
  const ledger = new Ledger();
  for (const { name, owner } of plainEntries(seed, count)) {
    const data = encodeNameRegistry({ parent: SNS_ROOT_DOMAIN, owner: bytesToAddress(owner) }, 1000);
    ledger.setAccount(deriveDomainKey(name), { owner: NAME_PROGRAM_ID, data });
  }
  return ledger;
}

function plainEntries(seed: number, count: number): { name: string; owner: Uint8Array }[] {
  const rng = createRng(seed);
  return Array.from({ length: count }, (_, i) => {
    const name = `${rng.int(0, 1e9).toString(36)}-plain${i}`;
    const owner = new Uint8Array(32);
    do {
      for (let b = 0; b < 32; b++) owner[b] = rng.int(0, 255);
    } while (!decodesAsPoint(owner));
    return { name, owner };
  });
}
