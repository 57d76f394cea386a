/**
 * A child process for test/sns/renewed-map.test.ts: a long-lived collection whose entries come and go
 * the way reads in flight do (a rolling window of 64 entries, each holding a request-sized object),
 * run under `--trace-gc-nvp`, so that the parent can add up what each scavenge promoted.
 * `node --max-semi-space-size=8 --trace-gc-nvp --import tsx testkit/collection-churn.ts map|renewed`
 */
import { RenewedMap } from "../src/sns/renewed-map.js";

const kind = process.argv[2];
const collection = kind === "renewed" ? new RenewedMap<string, object>() : new Map<string, object>();
const window: string[] = [];
let serial = 0;

function churn(): void {
  for (let i = 0; i < 20_000; i++) {
    const key = `read ${serial++}`;
    collection.set(key, { bytes: new Array(20).fill(serial), text: `${"x".repeat(50)}${serial}` });
    window.push(key);
    if (window.length > 64) collection.delete(window.shift()!);
  }
  if (serial < 3_000_000) setImmediate(churn);
}
churn();
