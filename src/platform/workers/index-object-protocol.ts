import type { Address } from "@solana/kit";
import type { IndexAnswer } from "../../service/tokenized-index.js";
import type { TokenizedIndexFallback } from "../../telemetry.js";

/** What the Worker asks the index's Durable Object: the names of a wallet's mints read at `slot`. */
export interface NamesQuery {
  readonly slot: number;
  readonly mints: readonly Address[];
}

/** The object's route for names; the host name is never resolved (a stub's fetch goes to the object). */
export const NAMES_URL = "https://tokenized-index.internal/names";

/** The object's route for "every endpoint refused this floor" (MintIndex.floorUnreachable). */
export const FLOOR_URL = "https://tokenized-index.internal/floor-unreachable";

/** What the Worker tells the object when every endpoint refused its floor, and what the object answers. */
export interface FloorRefusal {
  readonly floor: number;
  readonly servable?: number;
}
export interface FloorAnswer {
  readonly floor: number;
  readonly floorDrops: number;
}

/** Most mints one query may carry (a wallet's mints are bounded by its request's items budget far below). */
export const MAX_QUERY_MINTS = 200_000;

const FALLBACKS: readonly TokenizedIndexFallback[] = ["building", "failed", "over_budget", "slow"];
const isSlot = (value: unknown): value is number =>
  typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
const isKeyText = (value: unknown): value is string =>
  typeof value === "string" && value.length >= 32 && value.length <= 44;

/** The query in a request body, or undefined when it is not one. */
export function parseNamesQuery(body: unknown): NamesQuery | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const { slot, mints } = body as { slot?: unknown; mints?: unknown };
  if (!isSlot(slot) || !Array.isArray(mints) || mints.length > MAX_QUERY_MINTS || !mints.every(isKeyText))
    return undefined;
  return { slot, mints: mints as Address[] };
}

/** The refusal in a request body, or undefined when it is not one. */
export function parseFloorRefusal(body: unknown): FloorRefusal | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const { floor, servable } = body as { floor?: unknown; servable?: unknown };
  if (!isSlot(floor) || (servable !== undefined && !isSlot(servable))) return undefined;
  return servable === undefined ? { floor } : { floor, servable };
}

/** The object's answer to a refusal, or undefined when it is not one. */
export function parseFloorAnswer(body: unknown): FloorAnswer | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const { floor, floorDrops } = body as { floor?: unknown; floorDrops?: unknown };
  return isSlot(floor) && isSlot(floorDrops) ? { floor, floorDrops } : undefined;
}

/** The object's answer to `query`, or undefined when it is not one (the Worker then scans). */
export function parseIndexAnswer(body: unknown, query: NamesQuery): IndexAnswer | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const {
    names,
    unavailable,
    floor,
    floorDrops: drops,
  } = body as { names?: unknown; unavailable?: unknown; floor?: unknown; floorDrops?: unknown };
  if (!isSlot(floor)) return undefined;
  const floorDrops = isSlot(drops) ? drops : 0;
  if (typeof unavailable === "string") {
    return FALLBACKS.includes(unavailable as TokenizedIndexFallback)
      ? { unavailable: unavailable as TokenizedIndexFallback, floor, floorDrops }
      : undefined;
  }
  if (!Array.isArray(names) || names.length !== query.mints.length) return undefined;
  if (!names.every((name) => name === null || isKeyText(name))) return undefined;
  return { names: names as (Address | null)[], floor, floorDrops };
}
