import type { Address } from "@solana/kit";
import type { AccountData } from "../sns/chain.js";
import type { ResolutionSteps } from "../sns/resolution-steps.js";
import type { RequestBudget } from "./request-budget.js";

/**
 * The most entries of each list one trace keeps: a 1,000-name bulk request
 * reads 4,000 accounts or more, and its trace stays within tens of
 * kilobytes; what is left out is counted (`omitted`).
 */
export const TRACE_LIMITS = { reads: 200, steps: 200, posts: 50, names: 100, attempts: 8, nameLength: 256 } as const;

/** A name as the trace keeps it: names have no length limit, so a longer one is cut (and ends in "…"). */
const shortName = (name: string): string =>
  name.length > TRACE_LIMITS.nameLength ? `${name.slice(0, TRACE_LIMITS.nameLength)}…` : name;

/** One account read the request's answer used. */
interface ReadEntry {
  readonly key: string;
  readonly found: boolean;
  readonly owner?: string;
  readonly dataLength?: number;
  /** Only the first this many bytes of the account's data were read (a bulk request's registry header): `dataLength` counts those. */
  readonly head?: number;
  readonly slot?: number;
  /** The read was sent for another request too (coalesced or joined): this request used its answer. */
  readonly shared?: true;
}

interface StepEntry {
  readonly name: string;
  readonly step: string;
  readonly outcome: string;
}

interface AttemptEntry {
  readonly endpoint: string;
  readonly ms: number;
  readonly outcome: string;
  /** Why this attempt was sent besides the first: a hedge, or a failover after a fault. */
  kind?: "hedge" | "failover";
}

/** One HTTP post of JSON-RPC calls that carried some of the request's reads. */
interface PostEntry {
  /** JSON-RPC calls by method. */
  readonly calls: Record<string, number>;
  /** Account keys asked for by its getMultipleAccounts calls. */
  readonly keys: number;
  /** Other requests paid for it too: `calls` and `keys` count theirs as well, `ownCalls` this request's. */
  readonly shared?: true;
  readonly ownCalls?: number;
  ms?: number;
  outcome?: string;
  readonly attempts: AttemptEntry[];
  /** The kind of the next attempt to be sent (failover-transport.ts says it before sending it). */
  nextKind?: "hedge" | "failover";
}

interface NameEntry {
  readonly name: string;
  readonly cache: string;
  readonly ageSeconds?: number;
  readonly slot?: number;
}

/** What the HTTP layer says of how the request was taken. */
export interface TakenRequest {
  readonly validation: string;
  readonly cache: string;
  readonly ageSeconds?: number;
}

const round = (ms: number) => Math.round(ms * 100) / 100;

/**
 * How one request was decided (`?trace=1`): created by the frame for that
 * request only, carried on its budget (request-budget.ts), which reaches
 * the loader, the transport and the resolver; each appends what it did.
 * Never holds a URL beyond its host (a provider's URL carries its API key
 * in its credentials, path or query), and every list is bounded
 * (TRACE_LIMITS). Untraced requests have none: each layer's cost is one
 * `undefined` check.
 */
export class RequestTrace implements ResolutionSteps {
  private readonly roles = new Map<string, string>();
  private readonly reads: ReadEntry[] = [];
  /**
   * The keys listed in `reads`: a request that joins another's read already sent is listed as often
   * as it joins it (account-loader.ts looks for no repeat then), so each key is listed once here.
   */
  private readonly readKeys = new Set<string>();
  private readonly steps: StepEntry[] = [];
  private readonly posts: PostEntry[] = [];
  private readonly names: NameEntry[] = [];
  private readonly notes: string[] = [];
  private readonly postsByPayers = new WeakMap<object, PostEntry>();
  private readonly omitted = { reads: 0, steps: 0, posts: 0, names: 0 };
  private endpoints: { readonly list: "configured" | "override"; readonly hosts: readonly string[] } | undefined;

  account(key: Address, what: string): void {
    if (this.roles.size < TRACE_LIMITS.reads) this.roles.set(key, what);
  }

  step(name: string, what: string, outcome: string): void {
    if (this.steps.length < TRACE_LIMITS.steps) this.steps.push({ name: shortName(name), step: what, outcome });
    else this.omitted.steps++;
  }

  /** The endpoint list chosen: `configured` (RPC_URL, also when `rpc` names it) or `override`; hosts only. */
  endpointChosen(list: "configured" | "override", url: string): void {
    this.endpoints = { list, hosts: list === "configured" ? hostsOf(url) : hostsOf(url, false) };
  }

  /** How the resolver found a name's answer: `hit` (with its age and slot), `miss`, `coalesced`. */
  cache(name: string, outcome: string, ageSeconds?: number, slot?: number): void {
    if (this.names.length >= TRACE_LIMITS.names) {
      this.omitted.names++;
      return;
    }
    const entry: NameEntry = { name: shortName(name), cache: outcome };
    if (ageSeconds !== undefined) (entry as { ageSeconds?: number }).ageSeconds = ageSeconds;
    if (slot !== undefined && slot !== Infinity) (entry as { slot?: number }).slot = slot;
    this.names.push(entry);
  }

  /** A sentence about what the trace cannot show (an answer decided by another request). */
  note(text: string): void {
    if (this.notes.length < 8 && !this.notes.includes(text)) this.notes.push(text);
  }

  /** The request waited on the `.sol` cutoff slot read (sol-cutoff-gate.ts): one call shared by all who wait on it. */
  cutoffRead(url: string): void {
    this.note(
      `.sol cutoff: the finalized slot was read (getSlot at ${hostsOf(url).join(",")}) by one call shared with every request waiting on it; it is not among the posts`,
    );
  }

  /** An account read settled for this request: its own, or `shared` with others. */
  read(key: string, account: AccountData | null, slot: number, shared: boolean, head = 0): void {
    if (this.readKeys.has(key)) return;
    if (this.reads.length >= TRACE_LIMITS.reads) {
      this.omitted.reads++;
      return;
    }
    const entry: Record<string, unknown> = { key, found: account !== null };
    if (account) {
      entry.owner = account.owner;
      entry.dataLength = account.data.length;
      if (head !== 0) entry.head = head;
    }
    if (slot > 0) entry.slot = slot;
    if (shared) entry.shared = true;
    this.readKeys.add(key);
    this.reads.push(entry as unknown as ReadEntry);
  }

  /**
   * A post of `calls` about to be sent; `payers` (the post's payer map) names it for its attempts.
   * `ownCalls`: when other requests pay for it too, how many of its calls carry this request's reads.
   */
  postSent(
    payers: object,
    calls: readonly { readonly method: string; readonly params: readonly unknown[] }[],
    ownCalls?: number,
  ): void {
    if (this.posts.length >= TRACE_LIMITS.posts) {
      this.omitted.posts++;
      return;
    }
    const byMethod: Record<string, number> = {};
    let keys = 0;
    for (const call of calls) {
      byMethod[call.method] = (byMethod[call.method] ?? 0) + 1;
      if (call.method === "getMultipleAccounts" && Array.isArray(call.params[0])) keys += call.params[0].length;
    }
    const entry: PostEntry =
      ownCalls === undefined
        ? { calls: byMethod, keys, attempts: [] }
        : { calls: byMethod, keys, shared: true, ownCalls, attempts: [] };
    this.posts.push(entry);
    this.postsByPayers.set(payers, entry);
  }

  /** The next attempt of the post of `payers` is a hedge or a failover. */
  nextAttempt(payers: object, kind: "hedge" | "failover"): void {
    const post = this.postsByPayers.get(payers);
    if (post) post.nextKind = kind;
  }

  /** One attempt of the post of `payers` ended: at `url` (its host is kept), after `ms`, with `outcome`. */
  attempt(payers: object, url: string, ms: number, outcome: string): void {
    const post = this.postsByPayers.get(payers);
    if (!post || post.attempts.length >= TRACE_LIMITS.attempts) return;
    const entry: AttemptEntry = { endpoint: hostsOf(url, false).join(","), ms: round(ms), outcome };
    if (post.nextKind) entry.kind = post.nextKind;
    post.nextKind = undefined;
    post.attempts.push(entry);
  }

  /** The post of `payers` settled after `ms`. */
  postSettled(payers: object, ms: number, outcome: string): void {
    const post = this.postsByPayers.get(payers);
    if (!post) return;
    post.ms = round(ms);
    post.outcome = outcome;
  }

  /** The trace as the answer carries it (`trace` beside `s` and `result`). */
  render(taken: TakenRequest, budget: RequestBudget | undefined, now = Date.now()): Record<string, unknown> {
    const request: Record<string, unknown> = { validation: taken.validation };
    if (this.endpoints) request.endpoints = this.endpoints;
    request.cache = taken.cache;
    if (taken.ageSeconds !== undefined) request.ageSeconds = taken.ageSeconds;
    const trace: Record<string, unknown> = { request };
    if (this.names.length > 0) trace.names = this.names;
    trace.reads = this.reads.map((read) => {
      const what = this.roles.get(read.key);
      return what === undefined ? read : { key: read.key, what, ...withoutKey(read) };
    });
    trace.decision = this.steps;
    const posts = this.posts.map(({ nextKind: _, ...post }) => post);
    const spent = budget?.used;
    trace.rpc = {
      posts,
      budget: {
        calls: spent?.calls ?? 0,
        bytes: spent?.bytes ?? 0,
        ms: budget ? Math.max(0, now - (budget.deadline - budget.limits.deadlineMs)) : 0,
      },
    };
    if (this.notes.length > 0) trace.notes = this.notes;
    const { reads, steps, posts: postsLeft, names } = this.omitted;
    if (reads + steps + postsLeft + names > 0) {
      trace.omitted = { reads, decision: steps, posts: postsLeft, names, limits: TRACE_LIMITS };
    }
    return trace;
  }
}

function withoutKey(read: ReadEntry): Omit<ReadEntry, "key"> {
  const { key: _, ...rest } = read;
  return rest;
}

/**
 * The hosts (and ports) of an endpoint's URL: one URL, or (`several`) the
 * comma-joined list of the configured failover set. Nothing else of a URL
 * is kept: credentials, path and query can hold an API key. A part that
 * does not parse is left out. A request's own URL is never split: a comma
 * in its query could hold something that parses as a URL.
 */
export function hostsOf(url: string, several = true): string[] {
  const hosts: string[] = [];
  for (const part of several ? url.split(",") : [url]) {
    try {
      const host = new URL(part).host.toLowerCase();
      if (host !== "") hosts.push(host);
    } catch {
      // A comma inside one URL's path or query: that piece names no host.
    }
  }
  return hosts;
}
