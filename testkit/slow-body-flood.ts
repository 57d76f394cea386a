import { answered, openSlowBodies, type SlowBodyOptions } from "./slow-body.js";

/**
 * A slow-body flood from a process of its own (see `floodInChild` in
 * slow-body.ts), whose soft limit on descriptors its parent raised: run as
 * `node --import tsx testkit/slow-body-flood.ts '<FloodOrder as JSON>'`.
 * Opens the connections, each batch once at most `settleUnanswered` of
 * those before have no answer (see `openSlowBodies`), waits until at most
 * `settleUnanswered` have no answer (or `settleMs`), writes its FloodReport
 * as one JSON line, and exits (its connections closing with it).
 */
export interface FloodOrder {
  readonly url: string;
  readonly count: number;
  readonly options: SlowBodyOptions;
  readonly batch: number;
  readonly withinMs: number;
  readonly settleUnanswered: number;
  readonly settleMs: number;
}

export interface FloodReport {
  /** Connections opened (fewer than asked when `withinMs` ran out). */
  readonly opened: number;
  readonly openedMs: number;
  /** The status of each connection's first answer, 0 for none, counted. */
  readonly statuses: Readonly<Record<string, number>>;
  /** This process's soft limit on descriptors. */
  readonly descriptorLimit: string;
}

async function main(order: FloodOrder): Promise<FloodReport> {
  const started = performance.now();
  const bodies = await openSlowBodies(order.url, order.count, order.options, {
    batch: order.batch,
    withinMs: order.withinMs,
    paceUnanswered: order.settleUnanswered,
  });
  const openedMs = performance.now() - started;
  await answered(bodies, order.settleUnanswered, order.settleMs);
  const statuses: Record<string, number> = {};
  for (const body of bodies) statuses[body.status()] = (statuses[body.status()] ?? 0) + 1;
  for (const body of bodies) body.destroy();
  return { opened: bodies.length, openedMs, statuses, descriptorLimit: process.env.FLOOD_DESCRIPTOR_LIMIT ?? "?" };
}

const order = JSON.parse(process.argv[2] ?? "{}") as FloodOrder;
main(order).then(
  (report) => {
    process.stdout.write(`${JSON.stringify(report)}\n`, () => process.exit(0));
  },
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
