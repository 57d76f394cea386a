import type { RpcEndpoint } from "../rpc/endpoint.js";
import { RpcFailure } from "../rpc/errors.js";
import type { EndpointHealth } from "../rpc/failover/endpoint-health.js";
import { failoverKindOf } from "../rpc/failover/fault-kind.js";
import type { TokenizedIndexState } from "../telemetry.js";
import type { TokenizedIndex } from "./tokenized-index.js";

/**
 * How long one tip read answers for: `/ready` takes no `rpc` and counts
 * against no client's calls, so however often it is asked, it costs
 * `RPC_URL` at most about one `getSlot` a second (kept on Workers too).
 */
const TIP_REUSE_MS = 1000;

/** A tip read: its slot, or why it failed. */
interface TipRead {
  readonly slot: number | null;
  readonly error?: string;
}

/**
 * The last tip read and when it answered (ms since epoch), and the read in
 * flight: every `/ready` arriving while it is shares it, so however many ask
 * at once, one `getSlot` is under way at a time.
 */
export interface TipMemo {
  last?: TipRead & { readonly at: number };
  reading?: Promise<TipRead>;
}

/**
 * What kind of fault a tip read met, never its text: `/ready` is public, and
 * a message may carry an endpoint's address or a provider's own words.
 */
function faultKindOf(fault: unknown): string {
  return failoverKindOf(fault) ?? (fault instanceof RpcFailure ? fault.kind.replace("-", "_") : "unknown");
}

/** The tip, from the read of the last second, the read in flight, or a new read. */
function readTip(endpoint: RpcEndpoint, memo: TipMemo): TipRead | Promise<TipRead> {
  const last = memo.last;
  if (last !== undefined && Date.now() - last.at < TIP_REUSE_MS) return last;
  if (memo.reading) return memo.reading;
  const reading = endpoint.tipSlot().then(
    (slot): TipRead => ({ slot }),
    (fault: unknown): TipRead => ({ slot: null, error: faultKindOf(fault) }),
  );
  memo.reading = reading;
  void reading.then((read) => {
    memo.last = { ...read, at: Date.now() };
    if (memo.reading === reading) memo.reading = undefined;
  });
  return reading;
}

/** Nominal duration of a slot, to say an index's lag in seconds too. */
const NOMINAL_SLOT_SECONDS = 0.4;

/** One endpoint of `RPC_URL` as `/ready` shows it. */
export interface EndpointReport {
  /** Its host (never the URL: it may carry a key). */
  readonly host: string;
  /** closed: in rotation; open: out of rotation for a pause; half_open: one read probing it; none: a single endpoint (no circuit). */
  readonly circuit: "closed" | "open" | "half_open" | "none";
  /** The last fault counted against it (kind and ISO time); null while none. */
  readonly lastFault: { readonly kind: string; readonly at: string } | null;
}

/** What `/ready` answers: whether the gateway can answer from the chain now, and why. */
export interface ReadinessReport {
  readonly ready: boolean;
  /** Why it is not ready; absent when it is. */
  readonly reasons?: readonly string[];
  readonly rpc: {
    /** The tip slot `RPC_URL` answered now (`confirmed`); null when it did not. */
    readonly tipSlot: number | null;
    /**
     * What kind of fault kept the tip from being read (network, timeout,
     * rate_limited, http_5xx, http_status, invalid_response, node_condition,
     * jsonrpc, too_large, budget, not_configured, unknown); absent when it was.
     */
    readonly error?: string;
    readonly endpoints: readonly EndpointReport[];
  };
  /** The tokenized-domain index, or where it lives; null when off. */
  readonly index:
    | {
        readonly state: TokenizedIndexState;
        readonly lagSlots: number | null;
        readonly lagSeconds: number | null;
        readonly records: number;
        readonly maxLagSlots: number;
      }
    | { readonly state: "elsewhere" }
    | null;
  readonly sol: { readonly paused: boolean; readonly decidedAtSlot: number | null; readonly srs: boolean };
  readonly version: { readonly package: string; readonly commit: string | null };
}

export interface ReadinessSources {
  /** The `RPC_URL` endpoint (its failover set); undefined without `RPC_URL`. */
  endpoint(): RpcEndpoint | undefined;
  /** Its endpoints' health with several URLs; undefined with one. */
  readonly health: readonly EndpointHealth[] | undefined;
  /** The host of a single `RPC_URL`. */
  readonly singleHost: string | undefined;
  /** The index of this process; undefined when off or kept elsewhere. */
  readonly index: TokenizedIndex | undefined;
  /** Whether an index is kept outside this process (Workers: a Durable Object): its lag is not known here. */
  readonly indexElsewhere: boolean;
  readonly maxIndexLagSlots: number;
  readonly srs: boolean;
  readonly version: { readonly package: string; readonly commit: string | null };
  /** Where the last tip read is kept between calls. */
  readonly tip: TipMemo;
}

/**
 * Readiness: ready when `RPC_URL` answers its tip slot now (so at least one
 * of its endpoints is in rotation) and, where this process keeps a tokenized
 * index that is answering, that index is within `maxIndexLagSlots` of the
 * tip. An index not answering yet (idle, building, failed, over budget) does
 * not hold readiness back: `/domains` scans then. The tip is read at
 * `confirmed`, the commitment the index reads at. Each call also starts the
 * index's catch-up to that tip, so a quiet gateway's index keeps up; that
 * catch-up cannot fail the index (src/service/tokenized-index.ts, catchUpTo).
 */
export async function readiness(sources: ReadinessSources): Promise<ReadinessReport> {
  const reasons: string[] = [];
  const endpoint = sources.endpoint();
  let tipSlot: number | null = null;
  let error: string | undefined;
  if (!endpoint) error = "not_configured";
  else ({ slot: tipSlot, error } = await readTip(endpoint, sources.tip));
  if (tipSlot === null) reasons.push("no RPC endpoint answered");
  const endpoints: EndpointReport[] =
    sources.health?.map((health) => ({
      host: health.label,
      circuit: health.circuit,
      lastFault: faultOf(health.lastFault),
    })) ??
    (sources.singleHost === undefined
      ? []
      : [
          {
            host: sources.singleHost,
            circuit: "none",
            lastFault: error === undefined ? null : { kind: error, at: new Date().toISOString() },
          },
        ]);
  let index: ReadinessReport["index"] = null;
  if (sources.index) {
    const stats = sources.index.stats;
    const answering = stats.state === "ready";
    const lagSlots = answering && tipSlot !== null ? Math.max(0, tipSlot - stats.syncedSlot) : null;
    index = {
      state: stats.state,
      lagSlots,
      lagSeconds: lagSlots === null ? null : Math.round(lagSlots * NOMINAL_SLOT_SECONDS * 10) / 10,
      records: stats.records,
      maxLagSlots: sources.maxIndexLagSlots,
    };
    if (lagSlots !== null && lagSlots > sources.maxIndexLagSlots) reasons.push("tokenized index behind the tip");
    if (tipSlot !== null) sources.index.catchUpTo(tipSlot);
  } else if (sources.indexElsewhere) index = { state: "elsewhere" };
  const cutoff = endpoint?.solCutoff;
  return {
    ready: reasons.length === 0,
    ...(reasons.length > 0 && { reasons }),
    rpc: { tipSlot, ...(error !== undefined && { error }), endpoints },
    index,
    sol: { paused: cutoff?.reached ?? false, decidedAtSlot: cutoff?.slot ?? null, srs: sources.srs },
    version: sources.version,
  };
}

function faultOf(fault: { readonly kind: string; readonly at: number } | undefined): EndpointReport["lastFault"] {
  return fault === undefined ? null : { kind: fault.kind, at: new Date(fault.at).toISOString() };
}
