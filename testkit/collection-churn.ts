/**
 * A child process for test/process/collection-churn.test.ts: a long-lived collection whose entries come and go
 * the way reads in flight do (a rolling window of 64 entries, each holding a request-sized object),
 * run under `--trace-gc-nvp`, so that the parent can add up what each scavenge promoted.
 * `node --max-semi-space-size=8 --trace-gc-nvp --import tsx testkit/collection-churn.ts map|renewed-map|set|renewed-set`
 */
import { RenewedMap, RenewedSet } from "../src/sns/renewed-map.js";

type Held = { readonly bytes: number[]; readonly text: string };
const kind = process.argv[2];
const map =
  kind === "map" ? new Map<string, Held>() : kind === "renewed-map" ? new RenewedMap<string, Held>() : undefined;
const set = kind === "set" ? new Set<Held>() : kind === "renewed-set" ? new RenewedSet<Held>() : undefined;
if (!map && !set) throw new Error(`unknown collection ${kind}`);
const window: (string | Held)[] = [];
let serial = 0;

function churn(): void {
  for (let i = 0; i < 20_000; i++) {
    const held = { bytes: new Array<number>(20).fill(serial), text: `${"x".repeat(50)}${serial}` };
    const key = `read ${serial++}`;
    if (map) map.set(key, held);
    else set!.add(held);
    window.push(map ? key : held);
    if (window.length > 64) {
      const gone = window.shift()!;
      if (map) map.delete(gone as string);
      else set!.delete(gone as Held);
    }
  }
  if (serial < 3_000_000) setImmediate(churn);
}
churn();
