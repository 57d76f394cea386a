import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import type { IndexAnswer, MintIndex } from "../../service/tokenized-index.js";
import { utf8 } from "../../sns/bytes.js";
import {
  FLOOR_URL,
  type FloorRefusal,
  NAMES_URL,
  type NamesQuery,
  parseFloorAnswer,
  parseIndexAnswer,
} from "./index-object-protocol.js";

/** The part of a Durable Object namespace binding the Worker uses (no dependency on a types package). */
export interface ObjectNamespace {
  idFromName(name: string): unknown;
  get(id: unknown): { fetch(input: string, init?: RequestInit): Promise<Response> };
}

export function isObjectNamespace(value: unknown): value is ObjectNamespace {
  const candidate = value as Partial<ObjectNamespace> | null;
  return typeof candidate?.idFromName === "function" && typeof candidate.get === "function";
}

/**
 * The object's name for a list of RPC URLs: a hash, so URLs (which may hold
 * API keys) never appear as object names; the same list, the same object.
 */
export const indexObjectName = (rpcUrls: readonly string[]): string =>
  `tokenized:${bytesToHex(sha256(utf8.encode(rpcUrls.join(","))))}`;

/**
 * The Worker's side of the tokenized index in a Durable Object: one per
 * isolate, remembering the highest floor the object reported (plain data,
 * so a wallet's mints are read no older than the index), and asking the
 * object from the request that needs it (a stub is made per request).
 * The object answers within the index's wait; `waitMs` more and the
 * Worker stops waiting and scans. A floor goes down only when the object
 * has dropped one (its count of drops changed: no endpoint reached it, or
 * the object started afresh), never by an answer arriving late.
 */
export function indexObjectClient(name: string, waitMs: number): (namespace: ObjectNamespace) => MintIndex {
  let floor = 0;
  let drops = 0;
  const learn = (reported: number, reportedDrops: number) => {
    floor = reportedDrops === drops ? Math.max(floor, reported) : reported;
    drops = reportedDrops;
  };
  /** One call to the object of this endpoint list, bounded by the index's own wait. */
  const post = (namespace: ObjectNamespace, url: string, body: unknown) =>
    namespace.get(namespace.idFromName(name)).fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(waitMs),
    });
  return (namespace) => ({
    floor: () => (floor > 0 ? floor : undefined),
    async floorUnreachable(refused, servable): Promise<number> {
      const refusal: FloorRefusal = servable === undefined ? { floor: refused } : { floor: refused, servable };
      const response = await post(namespace, FLOOR_URL, refusal);
      const parsed = response.ok ? parseFloorAnswer(await response.json()) : undefined;
      if (!parsed) throw new Error(`tokenized index object answered ${response.status} without a floor`);
      learn(parsed.floor, parsed.floorDrops);
      return floor;
    },
    async namesOf(mints, slot): Promise<IndexAnswer> {
      const query: NamesQuery = { slot, mints };
      const response = await post(namespace, NAMES_URL, query);
      const parsed = response.ok ? parseIndexAnswer(await response.json(), query) : undefined;
      if (!parsed) throw new Error(`tokenized index object answered ${response.status} without an answer`);
      learn(parsed.floor, parsed.floorDrops ?? 0);
      return parsed;
    },
  });
}
