export { type Rng, createRng, freshSeed } from "./rng.js";
export * from "./chain-gen/types.js";
export { generateStates } from "./chain-gen/generate.js";
export { GeneratedLedger, buildLedger } from "./chain-gen/ledger.js";

/*
 * Random SNS chain states for resolution. Each state is one TLD-less name,
 * the accounts that decide how it resolves, a label naming the branch or edge
 * it was built to reach, and what the official SDK (3.0.26) does with it
 * under each PDA-owner policy.
 *
 *   const states = generateStates(createRng(seed), 1000);
 *   const ledger = buildLedger(states); // → startLocalnet({ ledger }) / startStack(ledger)
 *   // GET /resolve/<encodeURIComponent(state.name)>.sns, compare with state.expected.none
 *
 * A state is built top-down along the resolution precedence (domain → NFT
 * record → V2 SOL record → V1 SOL record → registry owner): layers above the
 * labelled one are random fall-through variants, the labelled layer is the
 * edge itself, and layers below are random junk (malformed included) that
 * must never be reached. Labels are scheduled in rng-shuffled rounds, so each
 * appears ⌊count / labels⌋ or one more times and a seed yields the same first
 * states whatever the count. No two states write the same address, so any
 * subset can be loaded on its own.
 */
// One file per concept under chain-gen/: the public types (types.ts), names (names.ts), owners and
// targets (owners.ts), each layer of the precedence (layer.ts, domain-, nft-, v2-, v1-, owner-layer.ts),
// the recipe per label (recipes.ts), generation (generate.ts), the ledger (ledger.ts); the ed25519
// corner cases (signatures.ts) and the official SDK as an oracle in a worker thread (sdk-oracle.ts).
