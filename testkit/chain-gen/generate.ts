import { encodeNameRegistry } from "../../src/localnet/index.js";
import { bytesToAddress } from "../../src/sns/bytes.js";
import { NAME_PROGRAM_ID, SNS_ROOT_DOMAIN } from "../../src/sns/constants.js";
import {
  deriveDomainKey,
  deriveNftRecordKey,
  deriveRecordV1Key,
  deriveRecordV2Key,
  deriveTokenizedMint,
} from "../../src/sns/derive.js";
import type { Rng } from "../rng.js";
import { domainLayer } from "./domain-layer.js";
import type { Build, Effect, Keys } from "./layer.js";
import { put } from "./layer.js";
import { planName } from "./names.js";
import { NFT_FALL_KINDS, NFT_KINDS, nftLayer } from "./nft-layer.js";
import { ownerEffect, putOwnerAccount } from "./owner-layer.js";
import { type Owner, identityPools, makeOwner, randomIdentity, randomOwnerKind } from "./owners.js";
import { chooseKind, chooseV1, recipeFor } from "./recipes.js";
import {
  BRANCH_LABELS,
  type BranchLabel,
  type Expectation,
  type GenerateOptions,
  type GeneratedState,
  PDA_POLICIES,
  type PdaPolicyName,
} from "./types.js";
import { v1Layer } from "./v1-layer.js";
import { V2_FALL_KINDS, V2_KINDS, v2Layer } from "./v2-layer.js";

// A state built top-down along the precedence, and its expectation under each PDA policy; states in
// label rounds.

function expectation(layers: readonly Effect[], o: Owner, policy: PdaPolicyName): Expectation {
  for (const effect of [...layers, ownerEffect(o, policy)]) {
    switch (effect.kind) {
      case "fall":
        continue;
      case "key":
        return { sdk: { kind: "key", key: bytesToAddress(effect.key), source: effect.source } };
      case "error":
        return { sdk: { kind: "error", error: effect.error } };
      case "undecodable":
        return { sdk: effect.sdk, undecodable: effect.what };
    }
  }
  throw new Error("the owner layer always decides");
}

function generateState(rng: Rng, label: BranchLabel, unique: string, options: GenerateOptions): GeneratedState {
  const plan = planName(rng, unique, options.subdomainShare ?? 0.3);
  const name = plan.name;
  if (name !== name.trim().toLowerCase()) throw new Error(`generated name ${JSON.stringify(name)} is not normalized`);
  const domain = deriveDomainKey(name);
  const keys: Keys = {
    domain,
    nftRecord: deriveNftRecordKey(domain),
    solV1: deriveRecordV1Key(domain, "SOL"),
    solV2: deriveRecordV2Key(domain, "SOL"),
    mint: deriveTokenizedMint(domain),
  };
  const recipe = recipeFor(label);
  const o = makeOwner(rng, recipe.owner === "random" ? randomOwnerKind(rng) : recipe.owner, name, recipe.pdaAccount);
  const b: Build = { rng, name, keys, owner: o, accounts: [] };

  const parentLabel = name.split(".")[1];
  const parentKey = parentLabel === undefined ? undefined : deriveDomainKey(parentLabel);
  if (plan.parentToCreate !== undefined) {
    const parentOwner = randomIdentity(rng).address;
    const parentData = encodeNameRegistry({ parent: SNS_ROOT_DOMAIN, owner: parentOwner }, 64);
    put(b, deriveDomainKey(plan.parentToCreate), NAME_PROGRAM_ID, parentData);
  }

  const layers: Effect[] = [domainLayer(b, recipe.domain, parentKey)];
  layers.push(nftLayer(b, chooseKind(rng, recipe.nft, NFT_KINDS, NFT_FALL_KINDS)));
  layers.push(v2Layer(b, chooseKind(rng, recipe.v2, V2_KINDS, V2_FALL_KINDS)));
  layers.push(v1Layer(b, chooseV1(rng, recipe.v1, o)));
  putOwnerAccount(b);

  const expected = Object.fromEntries(PDA_POLICIES.map((policy) => [policy, expectation(layers, o, policy)])) as Record<
    PdaPolicyName,
    Expectation
  >;
  return {
    name,
    label,
    tags: plan.tags,
    accounts: b.accounts,
    ...(b.largest ? { largestAccounts: b.largest } : {}),
    expected,
  };
}

/**
 * `count` random states, labels scheduled in shuffled rounds so that each
 * label appears ⌊count / labels⌋ or one more times. Names are unique within
 * `options.namespace` (default: derived from the seed).
 */
export function generateStates(rng: Rng, count: number, options: GenerateOptions = {}): GeneratedState[] {
  const labels = options.labels ?? BRANCH_LABELS;
  const namespace = options.namespace ?? defaultNamespace(rng);
  if (!/^[a-z0-9]+$/.test(namespace)) throw new RangeError(`namespace must be [a-z0-9]+, got ${namespace}`);
  const states: GeneratedState[] = [];
  let round: BranchLabel[] = [];
  if (options.identityPool !== undefined) identityPools.set(rng, Math.max(2, Math.floor(options.identityPool)));
  try {
    for (let i = 0; i < count; i++) {
      if (round.length === 0) round = rng.shuffle(labels);
      states.push(generateState(rng, round.pop()!, `${namespace}-${i.toString(36)}`, options));
    }
  } finally {
    identityPools.delete(rng);
  }
  return states;
}

const generations = new WeakMap<Rng, number>();

/** `s<seed>` for an rng's first generation, `s<seed>g<n>` for later ones, so repeated calls never collide. */
function defaultNamespace(rng: Rng): string {
  const generation = generations.get(rng) ?? 0;
  generations.set(rng, generation + 1);
  return `s${rng.seed.toString(36)}${generation === 0 ? "" : `g${generation}`}`;
}
