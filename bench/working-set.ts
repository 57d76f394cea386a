import {
  BRANCH_LABELS,
  type BranchLabel,
  type GeneratedLedger,
  type GeneratedState,
  type SdkOutcome,
  buildLedger,
  generateStates,
} from "../testkit/chain-gen.js";
import { createRng } from "../testkit/rng.js";

export interface WorkingSetEntry {
  /** What goes before the suffix in `/resolve/<name><suffix>` (not yet URL-encoded). */
  readonly name: string;
  /** chain-gen branch label, or a request-shape label for names with no chain state. */
  readonly branch: string;
  /** Suffixes requests may use; names with a chain state are asked as both `.sns` and `.sol`. */
  readonly suffixes: readonly string[];
  /** Resolution reaches data the documented layout cannot decode: the gateway's deliberate 422. */
  readonly undecodable: boolean;
  /** What the official SDK does with the name (chain-gen's expectation, default PDA policy). */
  readonly sdk?: SdkOutcome;
}

export interface WorkingSet {
  readonly ledger: GeneratedLedger;
  readonly entries: readonly WorkingSetEntry[];
}

/** What the ledger is built from: plain data, so it can be cached on disk (bench/working-set-cache.ts). */
export interface WorkingSetParts {
  readonly states: readonly GeneratedState[];
  readonly entries: readonly WorkingSetEntry[];
}

export interface WorkingSetOptions {
  /** chain-gen's wallet pool (default 48); the scale bench gives every name its own owner. */
  readonly identityPool?: number;
}

/**
 * Shares per 1,000 names. chain-gen schedules its labels evenly, which suits
 * differential tests; traffic is not like that, so common outcomes get most of
 * the names and every other label (the malformed and adversarial edges) keeps
 * a few, so all branches stay part of the measured cost.
 */
const COMMON: Partial<Record<BranchLabel, number>> = {
  "owner/on-curve": 300,
  "domain/missing": 120,
  "v2/valid": 110,
  "v1/valid": 80,
  "nft/active": 70,
  "v2/stale": 40,
  "nft/inactive": 30,
  "v1/wrong-signer": 25,
  "owner/pda-other-program": 10,
  "owner/pda-no-account": 10,
  "nft/burned": 10,
  "nft/no-mint": 10,
  "v2/roa-mismatch": 10,
  "v2/wrong-validation": 10,
  "v2/content-short": 5,
  "v2/content-long": 5,
  "v1/short-payload": 8,
  "v2/invalid-validation": 8,
};
/** Request shapes with no chain state behind them, per 1,000 names. */
const REQUEST_SHAPES = { "request/invalid-input": 10, "request/unsupported-tld": 10 } as const;
const EDGE_SHARE = 1000 - Object.values(COMMON).reduce((a, b) => a + b, 0) - 20;

const BOTH = [".sns", ".sol"] as const;
/** Subdomains are a minority of real lookups. */
const SUBDOMAIN_SHARE = 0.1;

/** Label → number of names, scaled to `total`, at least one each. */
function labelCounts(total: number): Map<BranchLabel, number> {
  const edges = BRANCH_LABELS.filter((label) => COMMON[label] === undefined);
  const counts = new Map<BranchLabel, number>();
  for (const label of BRANCH_LABELS) {
    const share = COMMON[label] ?? EDGE_SHARE / edges.length;
    counts.set(label, Math.max(1, Math.round((share * total) / 1000)));
  }
  return counts;
}

/**
 * About `total` names over one ledger, built by the shared chain-state
 * generator (testkit/chain-gen.ts) with a traffic-like label mix, plus a
 * few requests that fail validation before any RPC.
 */
export function generateWorkingSet(seed: number, total: number, options: WorkingSetOptions = {}): WorkingSet {
  const { states, entries } = generateWorkingSetParts(seed, total, options);
  return { ledger: buildLedger(states), entries };
}

export function generateWorkingSetParts(seed: number, total: number, options: WorkingSetOptions = {}): WorkingSetParts {
  const rng = createRng(seed);
  const entries: WorkingSetEntry[] = [];
  const states = [...labelCounts(total)].flatMap(([label, count], i) =>
    generateStates(rng, count, {
      labels: [label],
      namespace: `b${i.toString(36)}x`,
      subdomainShare: SUBDOMAIN_SHARE,
      ...(options.identityPool !== undefined && { identityPool: options.identityPool }),
    }),
  );
  for (const state of states) {
    const expected = state.expected.none;
    entries.push({
      name: state.name,
      branch: state.label,
      suffixes: BOTH,
      undecodable: expected.undecodable !== undefined,
      sdk: expected.sdk,
    });
  }
  const scaled = (n: number) => Math.max(1, Math.round((n * total) / 1000));
  for (let i = 0; i < scaled(REQUEST_SHAPES["request/invalid-input"]); i++) {
    // Three labels: refused before any RPC by both servers.
    entries.push({ name: `bad${i}.x.y`, branch: "request/invalid-input", suffixes: BOTH, undecodable: false });
  }
  for (let i = 0; i < scaled(REQUEST_SHAPES["request/unsupported-tld"]); i++) {
    entries.push({
      name: `other${i}`,
      branch: "request/unsupported-tld",
      suffixes: [rng.pick([".com", ".eth", ""])],
      undecodable: false,
    });
  }
  return { states, entries };
}
